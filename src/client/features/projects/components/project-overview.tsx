import { CircleCheck, CirclePlay, FolderKanban, TrendingUp } from 'lucide-react';
import { PROJECT_STATUS_LABELS, PROJECT_STATUS_TILES } from '../../../../domain/constants';
import type { ProjectStats, ProjectTile } from '../../../../domain/projects';
import { StatCard } from '../../../components/ui/stat-card';
import { cn } from '../../../lib/cn';

export function ProjectStatCards({ stats }: { stats: ProjectStats }) {
  return (
    <section aria-label="Project statistics" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <StatCard label="Total Projects" value={stats.total} icon={<FolderKanban className="h-5 w-5" />} />
      <StatCard label="Active" value={stats.active} icon={<CirclePlay className="h-5 w-5" />} />
      <StatCard label="Completed" value={stats.completed} icon={<CircleCheck className="h-5 w-5" />} />
      <StatCard label="Avg Progress" value={`${stats.avgProgress}%`} icon={<TrendingUp className="h-5 w-5" />} />
    </section>
  );
}

const TILES: { key: ProjectTile; label: string }[] = [
  { key: 'all', label: 'All Projects' },
  ...PROJECT_STATUS_TILES.map((s) => ({ key: s, label: PROJECT_STATUS_LABELS[s] })),
];

export interface StatusTilesProps {
  counts: Record<ProjectTile, number>;
  selected: ProjectTile;
  onSelect: (tile: ProjectTile) => void;
}

/** Status tiles with counts that filter the list (archived is not a tile). */
export function StatusTiles({ counts, selected, onSelect }: StatusTilesProps) {
  return (
    <div role="group" aria-label="Filter by status" className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
      {TILES.map(({ key, label }) => {
        const isSelected = selected === key;
        return (
          <button
            key={key}
            type="button"
            aria-pressed={isSelected}
            onClick={() => onSelect(key)}
            className={cn(
              'flex items-center justify-between gap-2 rounded-lg border px-3 py-2 text-left text-sm font-medium transition-colors',
              isSelected
                ? 'border-brand-600 bg-brand-50 text-brand-700 dark:border-indigo-400 dark:bg-indigo-950 dark:text-indigo-100'
                : 'border-slate-200 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800',
            )}
          >
            <span>{label}</span>
            <span
              className={cn(
                'rounded-full px-2 py-0.5 text-xs font-semibold',
                isSelected
                  ? 'bg-brand-600 text-white dark:bg-indigo-400 dark:text-slate-950'
                  : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
              )}
            >
              {counts[key]}
            </span>
          </button>
        );
      })}
    </div>
  );
}
