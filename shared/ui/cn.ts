import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names; later Tailwind utilities override earlier conflicting ones (so callers' `className` wins). */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
