// A product image thumbnail. Source platforms' image hosts refuse other sites' referrers, so none is sent; a missing
// or broken image shows a placeholder instead.
import { ImageOff } from "lucide-react";
import { useState } from "react";
import { cn } from "#shared/ui/cn.ts";

export function Thumb({
  src,
  alt,
  size = 48,
  className,
}: {
  src: string | null | undefined;
  alt: string;
  size?: number;
  className?: string;
}) {
  const [broken, setBroken] = useState(false);
  const style = { width: size, height: size };
  if (!src || broken) {
    return (
      <div
        style={style}
        className={cn("bg-muted text-muted-foreground flex shrink-0 items-center justify-center rounded-md border", className)}
        aria-label="无图片"
        role="img"
      >
        <ImageOff aria-hidden="true" className="size-4" />
      </div>
    );
  }
  return (
    <img
      src={src.startsWith("//") ? `https:${src}` : src}
      alt={alt}
      style={style}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
      className={cn("bg-muted shrink-0 rounded-md border object-cover", className)}
    />
  );
}
