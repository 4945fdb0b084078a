-- Issue 29: the specification's public read-back /keys/{key_id} finds a key id across accounts
-- (key ids are unique per account since 0029) by one indexed read.
CREATE INDEX "mandate_keys_key_id_idx" ON "mandate_keys" USING btree ("key_id");
