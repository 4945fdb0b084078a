CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"x" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
