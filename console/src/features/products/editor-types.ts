// The editor form's type, shared by its sections.
import type { UseFormReturn } from "react-hook-form";
import type { ProductEditorOutput, ProductEditorValues } from "./product-editor-schema.ts";

export type EditorForm = UseFormReturn<ProductEditorValues, unknown, ProductEditorOutput>;
