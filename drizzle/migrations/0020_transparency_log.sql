CREATE TABLE "log_checkpoints" (
	"size" bigint PRIMARY KEY NOT NULL,
	"root_hash" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "log_entries" (
	"idx" bigint PRIMARY KEY NOT NULL,
	"leaf" text NOT NULL,
	"record_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "log_head" (
	"id" integer PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"integrated" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "log_nodes" (
	"level" integer NOT NULL,
	"idx" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "log_nodes_level_idx_pk" PRIMARY KEY("level","idx")
);
--> statement-breakpoint
CREATE INDEX "log_entries_record_idx" ON "log_entries" USING btree ("record_id","idx");--> statement-breakpoint
INSERT INTO "log_head" ("id", "size", "integrated") VALUES (1, 0, 0);
