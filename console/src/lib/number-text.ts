// A number typed into a form as text, read by a zod schema with Chinese messages (bulk edits, the product editor,
// pricing rules).
// Moved to shared/ (the extension's side panel reads the same fields the same way).
export { numberText } from "#shared/text/form-text.ts";
