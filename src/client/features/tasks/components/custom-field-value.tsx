import type { ReactNode } from 'react';
import { type CustomFieldDef, type CustomFieldValue as FieldValue, fieldValueText } from '../../../../domain/custom-fields';
import { cn } from '../../../lib/cn';
import { usePersonNames } from './person-names';
import { formatCardDate } from './task-meta';

/**
 * A custom field's value shown compactly (issue 38): the board's cards (card-fields.tsx, loaded lazily), the list's
 * cells. Kept small and free of zod and schemas/ at run time. Code in the board's start-up script that needs only
 * people's names imports person-names.ts, not this module.
 */

type FieldLook = Pick<CustomFieldDef, 'name' | 'type' | 'options' | 'unit' | 'decimals'>;

/** '#rrggbb' → relative luminance (WCAG 2). */
function luminance(hex: string): number {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return 1;
  const [r, g, b] = [m[1], m[2], m[3]].map((c) => {
    const v = Number.parseInt(c ?? '0', 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Black or white, whichever reads better on the colour: one of them is always at least 4.58:1 (WCAG AA for text) on
 * any colour, so every option's chip is legible whatever colour its team chose.
 */
export function textColorOn(hex: string): '#000000' | '#ffffff' {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

export { usePersonNames } from './person-names';

const chipClass = 'inline-flex max-w-full items-center rounded-full px-2 py-0.5 text-xs font-medium';
const plainChipClass = cn(chipClass, 'bg-slate-100 text-slate-700 dark:bg-slate-700 dark:text-slate-100');

function OptionChip({ color, children }: { color: string; children: ReactNode }) {
  return (
    <span className={chipClass} style={{ backgroundColor: color, color: textColorOn(color) }}>
      <span className="truncate">{children}</span>
    </span>
  );
}

export interface CustomFieldValueProps {
  field: FieldLook;
  value: FieldValue | null | undefined;
  /** With the field's name before the value ('Severity: Critical'): the cards. */
  withName?: boolean;
  /** A person's name by user id (else `usePersonNames` is asked, for person fields only). */
  personName?: (userId: string) => string | null;
  className?: string;
}

/**
 * One value as a small chip or text: a select's option in its colour, a multi-select's options, a number with its
 * unit, a short date, 'Name ✓' for a ticked checkbox, a person's name. Nothing when there is no value. A screen
 * reader reads 'Severity: Critical' when the name is shown.
 */
export function CustomFieldValue(props: CustomFieldValueProps) {
  if (props.value === null || props.value === undefined) return null;
  if (props.field.type === 'person' && !props.personName) return <PersonFieldValue {...props} />;
  return <FieldValueView {...props} />;
}

function PersonFieldValue(props: CustomFieldValueProps) {
  const personName = usePersonNames();
  return <FieldValueView {...props} personName={personName} />;
}

function FieldValueView({ field, value, withName, personName, className }: CustomFieldValueProps) {
  const text = fieldValueText(field, value, personName);
  if (text === null) return null;
  const prefix = withName ? `${field.name}: ` : '';
  if (field.type === 'select') {
    const option = field.options.find((o) => o.id === value);
    return (
      <span className={cn('inline-flex max-w-full', className)} data-field-value>
        <OptionChip color={option?.color ?? '#64748b'}>
          {prefix}
          {text}
        </OptionChip>
      </span>
    );
  }
  if (field.type === 'multi_select') {
    const ids = Array.isArray(value) ? value : [];
    const chosen = field.options.filter((o) => ids.includes(o.id));
    return (
      <span className={cn('inline-flex max-w-full flex-wrap items-center gap-1', className)} data-field-value>
        {withName && <span className="sr-only">{prefix}</span>}
        {withName && (
          <span aria-hidden className="text-xs text-slate-600 dark:text-slate-300">
            {field.name}:
          </span>
        )}
        {chosen.map((o, i) => (
          <OptionChip key={o.id} color={o.color}>
            {o.name}
            {i < chosen.length - 1 && <span className="sr-only">,</span>}
          </OptionChip>
        ))}
      </span>
    );
  }
  if (field.type === 'checkbox') {
    return (
      <span className={cn(plainChipClass, className)} data-field-value>
        {withName ? field.name : null}
        <span aria-hidden className={withName ? 'ml-1' : undefined}>
          ✓
        </span>
        <span className="sr-only">{withName ? ': Yes' : 'Yes'}</span>
      </span>
    );
  }
  const shown = field.type === 'date' && typeof value === 'string' ? formatCardDate(value) : text;
  return (
    <span className={cn(withName ? plainChipClass : 'inline-block max-w-full truncate', className)} data-field-value>
      <span className="truncate">
        {prefix}
        {field.type === 'date' && typeof value === 'string' ? <time dateTime={value}>{shown}</time> : shown}
      </span>
    </span>
  );
}
