import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A centred link under an auth card's form ('Back to sign in', 'Ask for a new link'). */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="text-center text-sm">
      <Link to={to} className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-indigo-300">
        {children}
      </Link>
    </p>
  );
}
