// A select inside a FormField: the field's value (text) and change, its id and aria on the trigger, and the choices.
import type { ReactNode } from "react";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";

type Choice = { value: string | number; label: ReactNode };

export type FormSelectProps = {
  field: {
    value: string;
    onChange: (value: string) => void;
    name: string;
    id: string;
    "aria-invalid": boolean;
    "aria-describedby": string | undefined;
  };
  choices: Choice[];
  placeholder?: string;
  className?: string;
  /** The trigger's data-testid; each choice is `${testId}-${value}`. */
  testId: string;
};

export function FormSelect({ field, choices, placeholder, className, testId }: FormSelectProps) {
  return (
    <Select name={field.name} value={field.value} onValueChange={field.onChange}>
      <SelectTrigger
        id={field.id}
        aria-invalid={field["aria-invalid"]}
        aria-describedby={field["aria-describedby"]}
        className={className}
        data-testid={testId}
      >
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {choices.map((c) => (
          <SelectItem key={c.value} value={String(c.value)} data-testid={`${testId}-${c.value}`}>
            {c.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
