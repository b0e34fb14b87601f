import { CircleX, Info, TriangleAlert } from 'lucide-react';
import type { AlertType, SystemAlertDto } from '../../../../domain/schemas/admin';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';

const STYLE: Record<AlertType, { icon: typeof Info; label: string; box: string; icon_: string }> = {
  info: {
    icon: Info,
    label: 'Info',
    box: 'border-sky-200 bg-sky-50 dark:border-sky-900 dark:bg-sky-950/40',
    icon_: 'text-sky-700 dark:text-sky-300',
  },
  warning: {
    icon: TriangleAlert,
    label: 'Warning',
    box: 'border-amber-200 bg-amber-50 dark:border-amber-900 dark:bg-amber-950/40',
    icon_: 'text-amber-700 dark:text-amber-300',
  },
  error: {
    icon: CircleX,
    label: 'Error',
    box: 'border-red-200 bg-red-50 dark:border-red-900 dark:bg-red-950/40',
    icon_: 'text-red-700 dark:text-red-300',
  },
};

export function SystemAlerts({ alerts }: { alerts: SystemAlertDto[] }) {
  return (
    <Card className="p-4">
      <h2 className="mb-3 text-lg font-semibold">System Alerts</h2>
      <ul className="space-y-2">
        {alerts.map((alert) => {
          const s = STYLE[alert.type];
          const Icon = s.icon;
          return (
            <li key={alert.id} className={cn('flex gap-3 rounded-lg border p-3', s.box)}>
              <Icon className={cn('mt-0.5 h-5 w-5 shrink-0', s.icon_)} aria-hidden />
              <div className="min-w-0">
                <p className="text-sm font-medium text-slate-900 dark:text-slate-100">
                  <span className="sr-only">{s.label}: </span>
                  {alert.title}
                </p>
                <p className="text-sm text-slate-700 dark:text-slate-300">{alert.message}</p>
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
