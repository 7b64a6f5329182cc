CREATE TABLE "module_auth_codes" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"expire_time" timestamp with time zone NOT NULL,
	"used_time" timestamp with time zone,
	"used_by_tenant_id" uuid,
	"apply_id" uuid,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "module_auth_codes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "module_auths" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"auth_tenant_id" uuid NOT NULL,
	"auth_content" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expire_time" timestamp with time zone NOT NULL,
	"audit_status" integer NOT NULL,
	"remark" text,
	"reason" text,
	"applicant_id" uuid NOT NULL,
	"auditor_id" uuid,
	"audit_time" timestamp with time zone,
	"revoke_time" timestamp with time zone,
	"apply_count" integer DEFAULT 1 NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	CONSTRAINT "module_auths_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "module_auths_not_self" CHECK ("module_auths"."tenant_id" <> "module_auths"."auth_tenant_id")
);
--> statement-breakpoint
CREATE INDEX "module_auth_codes_hash_idx" ON "module_auth_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "module_auth_codes_tenant_creation_idx" ON "module_auth_codes" USING btree ("tenant_id","creation_time");--> statement-breakpoint
CREATE INDEX "module_auths_tenant_creation_idx" ON "module_auths" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "module_auths_auth_tenant_creation_idx" ON "module_auths" USING btree ("auth_tenant_id","creation_time","id");--> statement-breakpoint
-- Codes and applies are tenant rows: the tenant policies of every tenant table (the applicant owns its applies, the
-- grantor its codes; ApplyAuth finds a code by its hash as erp_host, the explicit opt-out, for that one statement).
SELECT erp_secure_tenant_tables();--> statement-breakpoint
-- The grantor (auth_tenant_id) reads and audits the applies made to it: a second policy, on auth_tenant_id, for
-- SELECT and UPDATE only (only the applicant inserts; nobody deletes). erp_secure_tenant_tables() leaves it alone.
DROP POLICY IF EXISTS grantor_read ON module_auths;--> statement-breakpoint
CREATE POLICY grantor_read ON module_auths FOR SELECT TO erp_app
  USING (auth_tenant_id = (SELECT nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
DROP POLICY IF EXISTS grantor_update ON module_auths;--> statement-breakpoint
CREATE POLICY grantor_update ON module_auths FOR UPDATE TO erp_app
  USING (auth_tenant_id = (SELECT nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK (auth_tenant_id = (SELECT nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- Neither side may move an apply to other tenants: the applicant could otherwise point its row at a third tenant's data,
-- the grantor hand its row to another applicant. Both parties are fixed once the row exists.
CREATE OR REPLACE FUNCTION erp_module_auth_parties_fixed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NEW.tenant_id <> OLD.tenant_id OR NEW.auth_tenant_id <> OLD.auth_tenant_id THEN
    RAISE EXCEPTION 'the tenants of a module authorization cannot change' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER module_auths_parties_fixed BEFORE UPDATE ON module_auths FOR EACH ROW EXECUTE FUNCTION erp_module_auth_parties_fixed();
