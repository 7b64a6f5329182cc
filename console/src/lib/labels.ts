// Names the screens show for the server's numbers that several areas use: the badge tones and the source platforms.
import { PlatformType } from "@shared/contract/enums.ts";
import { platformNames } from "@shared/contract/names.ts";

export type BadgeTone = "default" | "secondary" | "success" | "warning" | "destructive" | "outline";

export const platformLabel = (type: number) => platformNames[type] ?? `平台 ${type}`;

/** The platforms in menu order. */
export const platformOptions = Object.values(PlatformType).map((value) => ({ value, label: platformLabel(value) }));
