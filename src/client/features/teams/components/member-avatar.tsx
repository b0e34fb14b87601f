import type { UserSummary } from '../../../../domain/schemas/common';
import { initials } from '../../../../domain/teams';
import { cn } from '../../../lib/cn';

/** A member's icon: their picture, or their initials. */
export function MemberAvatar({ user, className }: { user: UserSummary; className?: string }) {
  const base = cn(
    'inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-xs font-semibold ring-2 ring-white dark:ring-slate-900',
    className,
  );
  if (user.avatar) {
    return <img src={user.avatar} alt={user.fullName} title={user.fullName} className={cn(base, 'object-cover')} />;
  }
  return (
    <span
      role="img"
      aria-label={user.fullName}
      title={user.fullName}
      className={cn(base, 'bg-brand-100 text-brand-700 dark:bg-indigo-950 dark:text-indigo-200')}
    >
      {initials(user.fullName)}
    </span>
  );
}
