-- Sandbox records are private whatever was asked (spec 1: "Sandbox records are free, private…").
-- New ones are stored so; this brings the ones made before into line. Visibility is not part of
-- the signed payload, so no signature changes.
UPDATE "records" SET "visibility" = 'private' WHERE "environment" = 'sandbox' AND "visibility" = 'public';
