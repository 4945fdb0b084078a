CREATE TABLE "log_cosignatures" (
	"checkpoint_size" bigint NOT NULL,
	"witness_name" text NOT NULL,
	"line" text NOT NULL,
	"signed_at" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "log_cosignatures_checkpoint_size_witness_name_pk" PRIMARY KEY("checkpoint_size","witness_name")
);
--> statement-breakpoint
CREATE TABLE "log_witness_state" (
	"witness_name" text PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "badge_sightings" (
	"record_id" text NOT NULL,
	"host" text NOT NULL,
	"count" bigint DEFAULT 1 NOT NULL,
	"covered" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reported_at" timestamp with time zone,
	CONSTRAINT "badge_sightings_record_id_host_pk" PRIMARY KEY("record_id","host")
);
--> statement-breakpoint
CREATE TABLE "watch_matches" (
	"watch_id" text NOT NULL,
	"record_id" text NOT NULL,
	"how" text NOT NULL,
	"matched_value" text NOT NULL,
	"event_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watch_matches_watch_id_record_id_pk" PRIMARY KEY("watch_id","record_id")
);
--> statement-breakpoint
CREATE TABLE "watches" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"match_key" text NOT NULL,
	"skeleton" text,
	"origin" text DEFAULT 'user' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "badge_sightings" ADD CONSTRAINT "badge_sightings_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_matches" ADD CONSTRAINT "watch_matches_watch_id_watches_id_fk" FOREIGN KEY ("watch_id") REFERENCES "public"."watches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_matches" ADD CONSTRAINT "watch_matches_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "badge_sightings_uncovered_idx" ON "badge_sightings" USING btree ("covered","created_at");--> statement-breakpoint
CREATE INDEX "watch_matches_record_idx" ON "watch_matches" USING btree ("record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "watches_account_value_idx" ON "watches" USING btree ("account_id","kind","match_key");--> statement-breakpoint
CREATE INDEX "watches_match_idx" ON "watches" USING btree ("kind","match_key");--> statement-breakpoint
CREATE INDEX "watches_skeleton_idx" ON "watches" USING btree ("kind","skeleton");