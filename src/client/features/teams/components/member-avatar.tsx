import type { UserSummary } from '../../../../domain/schemas/common';
import { Avatar } from '../../../components/ui/avatar';
import { cn } from '../../../lib/cn';

/** A member's icon: their picture, or their initials. */
export function MemberAvatar({ user, className }: { user: UserSummary; className?: string }) {
  return (
    <Avatar
      name={user.fullName}
      src={user.avatar}
      label={user.fullName}
      className={cn('ring-2 ring-white dark:ring-slate-900', className)}
    />
  );
}
