// The panel's small building blocks: a titled section, a labelled field with its message, an error's text.
import type { ReactNode } from "react";

export const errorText = (e: unknown) => (e instanceof Error && e.message ? e.message : "操作失败");

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="section" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

export function Field({ label, error, children }: { label: string; error?: string; children: ReactNode }) {
  return (
    <label className={error ? "field invalid" : "field"}>
      <span>{label}</span>
      {children}
      {error ? <em role="alert">{error}</em> : null}
    </label>
  );
}
