import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useId, useRef, type ComponentProps, type ReactNode } from "react";
import {
  Controller,
  FormProvider,
  get,
  set,
  useForm,
  type Control,
  type ControllerRenderProps,
  type FieldError,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type SubmitHandler,
  type UseFormProps,
  type UseFormReturn,
} from "react-hook-form";
import type * as z from "zod";
import { cn } from "./cn.ts";
import { Label } from "./label.tsx";

/** The spec's default message for an empty required field: 请输入 + the field's label. */
export function requiredMessage(label: string): string {
  return `请输入${label}`;
}

/** Empty as a form sees it: nothing, blank text, or an empty list. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "number") return Number.isNaN(value);
  return false;
}

// The required fields (name → label) that <FormField required> registers on a form made by useZodForm. The resolver
// reads them, so an empty required field fails with 请输入{label} whatever the zod schema says about an empty value
// (react-hook-form ignores `rules` once a resolver is set, so the check has to live in the resolver).
const requiredRegistries = new WeakMap<object, Map<string, string>>();

function withRequiredFields<TIn extends FieldValues, TCtx, TOut>(
  inner: Resolver<TIn, TCtx, TOut>,
  required: Map<string, string>,
): Resolver<TIn, TCtx, TOut> {
  return async (values, context, options) => {
    const result = await inner(values, context, options);
    const errors: Record<string, unknown> = { ...(result.errors as Record<string, unknown>) };
    let added = false;
    for (const [name, label] of required) {
      if (!isEmptyValue(get(values, name))) continue;
      const existing = get(errors, name) as FieldError | undefined;
      if (existing?.type === "required" && existing.message === requiredMessage(label)) continue;
      set(errors, name, { type: "required", message: requiredMessage(label), ref: existing?.ref });
      added = true;
    }
    if (!added) return result;
    return { values: {}, errors: errors as typeof result.errors };
  };
}

export type UseZodFormOptions<TIn extends FieldValues, TCtx, TOut> = Omit<UseFormProps<TIn, TCtx, TOut>, "resolver">;

/** useForm with a zod resolver; `<FormField required>` fields on it fail with 请输入{label} when empty. */
export function useZodForm<S extends z.ZodType<any, FieldValues>, TCtx = unknown>(
  schema: S,
  options?: UseZodFormOptions<z.input<S>, TCtx, z.output<S>>,
): UseFormReturn<z.input<S>, TCtx, z.output<S>> {
  const registry = useRef<Map<string, string>>(null);
  registry.current ??= new Map();
  const resolver = useRef<Resolver<z.input<S>, TCtx, z.output<S>>>(null);
  // The resolver is made once: useForm keeps the first one it was given in its options anyway.
  resolver.current ??= withRequiredFields(zodResolver(schema) as Resolver<z.input<S>, TCtx, z.output<S>>, registry.current);
  const form = useForm<z.input<S>, TCtx, z.output<S>>({
    mode: "onSubmit",
    reValidateMode: "onChange",
    ...options,
    resolver: resolver.current,
  });
  requiredRegistries.set(form.control, registry.current);
  return form;
}

export type FormProps<TIn extends FieldValues, TCtx, TOut> = Omit<ComponentProps<"form">, "onSubmit"> & {
  form: UseFormReturn<TIn, TCtx, TOut>;
  onSubmit: SubmitHandler<TOut>;
};

/** A <form noValidate> (the browser's own bubbles would pre-empt the spec's messages) wired to handleSubmit. */
export function Form<TIn extends FieldValues, TCtx, TOut>({ form, onSubmit, children, className, ...props }: FormProps<TIn, TCtx, TOut>) {
  return (
    <FormProvider {...form}>
      <form noValidate className={cn("flex flex-col gap-4", className)} onSubmit={form.handleSubmit(onSubmit)} {...props}>
        {children}
      </form>
    </FormProvider>
  );
}

/** What FormField's render gets: react-hook-form's field props plus the ids/aria that tie control, label and error. */
type FormFieldControlProps<TIn extends FieldValues, TName extends FieldPath<TIn>> = ControllerRenderProps<TIn, TName> & {
  id: string;
  "aria-invalid": boolean;
  "aria-describedby": string | undefined;
  "aria-required": boolean | undefined;
};

export type FormFieldProps<TIn extends FieldValues, TCtx, TOut, TName extends FieldPath<TIn>> = {
  form: UseFormReturn<TIn, TCtx, TOut>;
  name: TName;
  label: string;
  required?: boolean;
  description?: ReactNode;
  className?: string;
  /** Hide the visible label (it stays for screen readers), e.g. in a compact filter bar. */
  hideLabel?: boolean;
  render: (field: FormFieldControlProps<TIn, TName>) => ReactNode;
};

export function FormField<TIn extends FieldValues, TCtx, TOut, TName extends FieldPath<TIn>>({
  form,
  name,
  label,
  required = false,
  description,
  className,
  hideLabel = false,
  render,
}: FormFieldProps<TIn, TCtx, TOut, TName>) {
  const id = useId();
  const control = form.control as Control<TIn, TCtx, TOut>;
  const registry = requiredRegistries.get(control);

  useEffect(() => {
    if (!required || !registry) return;
    registry.set(name, label);
    return () => {
      registry.delete(name);
    };
  }, [registry, required, name, label]);

  const controlId = `${id}-control`;
  const descriptionId = `${id}-description`;
  const messageId = `${id}-message`;

  return (
    <Controller
      control={control}
      name={name}
      // Without a resolver (a plain useForm) react-hook-form runs these rules itself.
      rules={required && !registry ? { validate: (value: unknown) => (isEmptyValue(value) ? requiredMessage(label) : true) } : undefined}
      render={({ field, fieldState }) => {
        const error = fieldState.error;
        // Whatever a schema or another resolver calls it, an empty required field reads 请输入{label}.
        const message = error ? (required && isEmptyValue(field.value) ? requiredMessage(label) : error.message) : undefined;
        const describedBy = [description ? descriptionId : null, message ? messageId : null].filter(Boolean).join(" ") || undefined;
        return (
          <div data-slot="form-item" data-invalid={error ? "" : undefined} className={cn("flex flex-col gap-2", className)}>
            <Label htmlFor={controlId} className={cn(hideLabel && "sr-only", error && "text-destructive")}>
              {required && (
                <span aria-hidden="true" className="text-destructive">
                  *
                </span>
              )}
              {label}
            </Label>
            {render({
              ...field,
              id: controlId,
              "aria-invalid": !!error,
              "aria-describedby": describedBy,
              "aria-required": required || undefined,
            })}
            {description && (
              <p id={descriptionId} data-slot="form-description" className="text-muted-foreground text-xs">
                {description}
              </p>
            )}
            {message && (
              <p id={messageId} role="alert" data-slot="form-message" className="text-destructive text-xs">
                {message}
              </p>
            )}
          </div>
        );
      }}
    />
  );
}
