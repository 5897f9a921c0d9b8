import type { ReactNode } from 'react';

/**
 * A page's or space's own icon (an emoji) where a list would show a generic one, in a box of the generic icon's
 * width so that titles stay aligned whichever each row has. Decorative: the row's text names it.
 */
export function IconMark({ icon, fallback, size = 16 }: { icon: string | null | undefined; fallback: ReactNode; size?: number }) {
  if (!icon) return <>{fallback}</>;
  return (
    <span aria-hidden style={{ flexShrink: 0, width: size, fontSize: Math.round(size * 0.85), textAlign: 'center', lineHeight: 1 }}>
      {icon}
    </span>
  );
}
