import type { PersonDto } from '../../../../../domain/schemas/task-detail';
import { initials } from '../../../../../domain/teams';
import { cn } from '../../../../lib/cn';

/** A person's picture or initials beside their name (decorative: the name is written next to it). */
export function PersonAvatar({ person, className }: { person: PersonDto | null; className?: string }) {
  const base = cn('inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-xs font-semibold', className);
  if (person?.avatar) return <img src={person.avatar} alt="" aria-hidden className={cn(base, 'object-cover')} />;
  return (
    <span aria-hidden className={cn(base, 'bg-brand-100 text-brand-700 dark:bg-indigo-950 dark:text-indigo-200')}>
      {person ? initials(person.fullName) : '?'}
    </span>
  );
}
