import { cn } from '../../lib/cn';

/** The product mark and name, with the edition shown in the sidebar (spec §1). */
export function Logo({ collapsed, showEdition, className }: { collapsed?: boolean; showEdition?: boolean; className?: string }) {
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <svg viewBox="0 0 32 32" className="h-8 w-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="#4f46e5" />
        <path d="M9 10h4v12H9zM15 10h4v8h-4zM21 10h3v5h-3z" fill="#fff" />
      </svg>
      {!collapsed && (
        <div className="leading-tight">
          <span className="text-lg font-bold tracking-tight">Crewboard</span>
          {showEdition && <span className="block text-xs text-slate-600 dark:text-slate-300">Professional Edition</span>}
        </div>
      )}
    </div>
  );
}
