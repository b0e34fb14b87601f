import { Monitor, Moon, Sun } from 'lucide-react';
import { THEMES, type Theme } from '../../../../domain/constants';
import { cn } from '../../../lib/cn';
import { useThemeStore } from '../../../stores/theme-store';
import { SettingsPanel } from './settings-section';

const THEME_OPTIONS: Record<Theme, { label: string; hint: string; icon: typeof Sun }> = {
  light: { label: 'Light', hint: 'Always light', icon: Sun },
  dark: { label: 'Dark', hint: 'Always dark', icon: Moon },
  system: { label: 'System', hint: "Follows your device's setting", icon: Monitor },
};

/** Light / Dark / System: the same setting as the top bar's theme menu (theme-storage). */
export function AppearancePanel() {
  const theme = useThemeStore((s) => s.theme);
  const setTheme = useThemeStore((s) => s.setTheme);
  return (
    <SettingsPanel title="Theme">
      <fieldset>
        <legend className="sr-only">Theme</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {THEMES.map((value) => {
            const { label, hint, icon: Icon } = THEME_OPTIONS[value];
            const checked = theme === value;
            return (
              <label
                key={value}
                className={cn(
                  'flex cursor-pointer items-center gap-3 rounded-lg border p-3 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600',
                  checked
                    ? 'border-brand-600 bg-brand-50 dark:border-indigo-400 dark:bg-indigo-950'
                    : 'border-slate-300 hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800',
                )}
              >
                <input
                  type="radio"
                  name="theme"
                  value={value}
                  checked={checked}
                  onChange={() => setTheme(value)}
                  className="h-4 w-4 accent-indigo-600"
                />
                <Icon className="h-5 w-5 shrink-0 text-slate-700 dark:text-slate-200" aria-hidden />
                <span>
                  <span className="block text-sm font-medium">{label}</span>
                  <span className="block text-xs text-slate-600 dark:text-slate-300">{hint}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
    </SettingsPanel>
  );
}
