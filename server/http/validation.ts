// Validates a request part with its zod schema. A missing required value reads as ABP words it:
// "The parameter X cannot be null."; other problems name the field and the rule.
import type { FastifySchemaCompiler } from "fastify";
import type { z } from "zod";
import type { ValidationErrorInfo } from "./errors.ts";

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let v: unknown = data;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

export function describeIssues(issues: z.core.$ZodIssue[], data: unknown): (ValidationErrorInfo & { instancePath: string })[] {
  return issues.map((issue) => {
    const name = issue.path.map(String).join(".");
    const missing = issue.code === "invalid_type" && (valueAt(data, issue.path) ?? null) === null;
    const message = missing ? `The parameter ${name || "input"} cannot be null.` : name ? `${name}: ${issue.message}` : issue.message;
    return { message, members: name ? [name] : [], instancePath: "/" + issue.path.map(String).join("/") };
  });
}

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data: unknown) => {
    const r = schema.safeParse(data);
    if (r.success) return { value: r.data };
    return { error: describeIssues(r.error.issues, data) as never };
  };
