// A checkbox inside a FormField (whose own label is hidden): the box and its text on one line.
import { Checkbox } from "#shared/ui/checkbox.tsx";

export type FormCheckProps = {
  field: { value: boolean; onChange: (value: boolean) => void; id: string; "aria-describedby": string | undefined };
  text: string;
  testId: string;
};

export function FormCheck({ field, text, testId }: FormCheckProps) {
  return (
    <label htmlFor={field.id} className="flex cursor-pointer items-center gap-2 text-sm">
      <Checkbox
        id={field.id}
        checked={field.value}
        onCheckedChange={(v) => field.onChange(v === true)}
        aria-describedby={field["aria-describedby"]}
        data-testid={testId}
      />
      {text}
    </label>
  );
}
