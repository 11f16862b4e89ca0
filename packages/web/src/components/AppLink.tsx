// wouter's Link that preloads its target page on hover, focus or touch (spec: preload on intent).
import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { Link } from 'wouter';
import { preloadPath } from '../lib/preload';

export function AppLink({
  href,
  children,
  className,
  ...props
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'className'> & {
  href: string;
  children: ReactNode;
  className?: string;
}) {
  const preload = () => preloadPath(href);
  return (
    <Link
      href={href}
      className={className ?? 'font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300'}
      onMouseEnter={preload}
      onFocus={preload}
      onTouchStart={preload}
      {...props}
    >
      {children}
    </Link>
  );
}
