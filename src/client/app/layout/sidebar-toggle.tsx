import type { LucideIcon } from 'lucide-react';
import { useSidebarStore } from '../../stores/ui-store';

export interface SidebarToggleProps {
  label: string;
  icon: LucideIcon;
  className: string;
}

/** Collapses or expands the sidebar; `aria-expanded` says whether it is open now. */
export function SidebarToggle({ label, icon: Icon, className }: SidebarToggleProps) {
  const toggle = useSidebarStore((s) => s.toggle);
  const isOpen = useSidebarStore((s) => !s.collapsed);
  return (
    <button type="button" onClick={toggle} className={className} aria-label={label} aria-expanded={isOpen}>
      <Icon className="h-5 w-5" aria-hidden />
    </button>
  );
}
