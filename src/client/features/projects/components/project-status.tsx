import { Archive, CircleCheck, CircleDashed, CirclePause, CirclePlay, type LucideIcon } from 'lucide-react';
import { type BadgeTone, PROJECT_STATUS_LABELS, type ProjectStatus } from '../../../../domain/constants';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';

const STATUS_META: Record<ProjectStatus, { icon: LucideIcon; tone: BadgeTone; iconClass: string }> = {
  planning: { icon: CircleDashed, tone: 'info', iconClass: 'text-sky-600 dark:text-sky-400' },
  active: { icon: CirclePlay, tone: 'primary', iconClass: 'text-brand-600 dark:text-indigo-300' },
  on_hold: { icon: CirclePause, tone: 'warning', iconClass: 'text-amber-600 dark:text-amber-400' },
  completed: { icon: CircleCheck, tone: 'success', iconClass: 'text-green-600 dark:text-green-400' },
  archived: { icon: Archive, tone: 'secondary', iconClass: 'text-slate-500 dark:text-slate-400' },
};

export function ProjectStatusIcon({ status, className }: { status: ProjectStatus; className?: string }) {
  const { icon: Icon, iconClass } = STATUS_META[status];
  return <Icon className={cn('h-5 w-5 shrink-0', iconClass, className)} aria-hidden />;
}

export function ProjectStatusBadge({ status }: { status: ProjectStatus }) {
  return <Badge tone={STATUS_META[status].tone}>{PROJECT_STATUS_LABELS[status]}</Badge>;
}
