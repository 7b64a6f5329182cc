-- Issue 31: a tenant on its own PostgreSQL database. One row per tenant that is (or is being moved) elsewhere: the
-- connection string encrypted (server/security/secrets.ts, bound to this table and the tenant), and where the move
-- stands: moving (its rows being copied there; its calls wait), active (its calls and jobs run there), returning (being
-- copied back). No row: the tenant lives in this, the shared database. Host data: no tenant_id, so no tenant policy.
CREATE TABLE "tenant_databases" (
	"tenant" uuid PRIMARY KEY NOT NULL,
	"connection" text NOT NULL,
	"masked" text NOT NULL,
	"state" text NOT NULL,
	"task_id" uuid,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modification_time" timestamp with time zone,
	CONSTRAINT "tenant_databases_state_check" CHECK ("state" in ('moving', 'active', 'returning'))
);--> statement-breakpoint
SELECT erp_secure_tenant_tables();
