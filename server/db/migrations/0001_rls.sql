-- Row-level security for every tenant-owned table. The app runs its queries as erp_app, a role that owns nothing, with
-- app.tenant_id set per transaction; its policy is one equality with the tenant as an InitPlan (evaluated once per
-- statement, not per row). Host-wide work opts out explicitly by running as erp_host, which also owns nothing and is
-- granted every row by a policy of its own.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'erp_app') THEN
    CREATE ROLE erp_app NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'erp_host') THEN
    CREATE ROLE erp_host NOLOGIN;
  END IF;
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT erp_app, erp_host TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
-- Later migrations call this again after adding tables, so no tenant table is ever left without its policies.
CREATE OR REPLACE FUNCTION erp_secure_tenant_tables() RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  t record;
  rule text := $r$tenant_id = (SELECT nullif(current_setting('app.tenant_id', true), '')::uuid)$r$;
BEGIN
  GRANT USAGE ON SCHEMA public TO erp_app, erp_host;
  GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO erp_app, erp_host;
  FOR t IN
    SELECT c.relname
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %I', t.relname);
    EXECUTE format('DROP POLICY IF EXISTS host_all ON %I', t.relname);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO erp_app USING (%s) WITH CHECK (%s)', t.relname, rule, rule);
    EXECUTE format('CREATE POLICY host_all ON %I TO erp_host USING (true) WITH CHECK (true)', t.relname);
  END LOOP;
END
$fn$;
--> statement-breakpoint
SELECT erp_secure_tenant_tables();
