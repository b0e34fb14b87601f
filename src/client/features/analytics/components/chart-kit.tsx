import { useId, type ReactNode } from 'react';
import { pattern, patterns, type RechartsFill, type RechartsPattern } from 'recharts';
import { cn } from '../../../lib/cn';

/**
 * The charts' shared look. Colours are Okabe–Ito's (told apart with the common colour-vision deficiencies),
 * set as CSS variables per theme on the frame; a series is never told by colour alone: bars carry a texture,
 * lines a dash style and a marker shape, and every legend entry draws the same texture or line as its series.
 */

/** The frame's CSS variables: light values, then dark ones (Tailwind `dark:` on the app's `.dark` class). */
const PALETTE = [
  // The card's own background: textures and gaps between stacked bars are drawn in it.
  '[--chart-surface:#ffffff] dark:[--chart-surface:#0f172a]',
  '[--chart-grid:#e2e8f0] dark:[--chart-grid:#334155]',
  '[--chart-axis:#64748b] dark:[--chart-axis:#94a3b8]',
  // Each series colour has at least 3:1 against the card (WCAG 1.4.11) in its theme.
  // Blue: 5.2:1 on white; sky blue: 7.7:1 on slate-900.
  '[--chart-primary:#0072b2] dark:[--chart-primary:#56b4e9]',
  // Vermillion: 3.9:1 on white; orange: 7.9:1 on slate-900.
  '[--chart-accent:#d55e00] dark:[--chart-accent:#e69f00]',
  // Bluish green: 3.4:1 on white; a lighter one, 6.7:1 on slate-900.
  '[--chart-green:#009e73] dark:[--chart-green:#2bb38b]',
  // Axis text and direct labels: slate-600 (7.6:1 on white), slate-300 (12:1 on slate-900).
  'text-slate-600 dark:text-slate-300',
].join(' ');

export const COLOR = {
  primary: 'var(--chart-primary)',
  accent: 'var(--chart-accent)',
  green: 'var(--chart-green)',
  surface: 'var(--chart-surface)',
  grid: 'var(--chart-grid)',
  axis: 'var(--chart-axis)',
  // The four priorities, light to heavy: sky blue, blue, orange, vermillion (the same in both themes). Sky blue and
  // orange are under 3:1 on white, so the stacked bars are outlined in the text colour (see WorkloadChart).
  low: '#56b4e9',
  medium: '#0072b2',
  high: '#e69f00',
  urgent: '#d55e00',
} as const;

/** Textures drawn in the card's background colour over a series' fill. */
export const TEXTURE = {
  diagonal: { ...patterns.diagonal, color: COLOR.surface, opacity: 0.7 },
  dots: { ...patterns.dots, color: COLOR.surface, opacity: 0.8 },
  crosshatch: { ...patterns.crosshatch, color: COLOR.surface, opacity: 0.8 },
  horizontal: { ...patterns.horizontal, color: COLOR.surface, opacity: 0.6 },
} as const satisfies Record<string, RechartsPattern>;
export type Texture = keyof typeof TEXTURE;

// pattern() makes a component: made once here, so a definition stays the same between renders.
const DEFINITIONS = {
  diagonal: pattern(TEXTURE.diagonal),
  dots: pattern(TEXTURE.dots),
  crosshatch: pattern(TEXTURE.crosshatch),
  horizontal: pattern(TEXTURE.horizontal),
};

/** A bar series' fill: its colour, with a texture when several series share the chart. */
export function seriesFill(color: string, texture?: Texture): string | RechartsFill {
  return texture ? { color, definition: DEFINITIONS[texture] } : color;
}

export type Marker = 'circle' | 'square';

export interface SeriesStyle {
  label: string;
  color: string;
  /** Bars: a texture over the colour. */
  texture?: Texture;
  /** Lines: a dash pattern (SVG stroke-dasharray) and a marker shape. */
  dash?: string;
  marker?: Marker;
}

/** The chart area: the palette's variables, the axis text colour, and a fixed height (the width follows the card). */
export function ChartFrame({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn(PALETTE, 'w-full min-w-0', className)}>{children}</div>;
}

/** Axis props shared by every chart: readable ticks in the text colour, quiet axis lines. */
export const axisProps = {
  tick: { fill: 'currentColor', fontSize: 12 },
  stroke: COLOR.axis,
  tickLine: false,
} as const;

export const gridProps = { stroke: COLOR.grid, strokeDasharray: '3 3' } as const;

/** Direct value labels on bars and points, in the axis text colour. */
export const labelProps = { fill: 'currentColor', fontSize: 11 } as const;

/** A point marker: a circle or a square, filled with the series colour and ringed with the card's background. */
export function markerDot(shape: Marker, color: string, size = 4) {
  return function MarkerDot(props: { cx?: number; cy?: number; index?: number; value?: unknown }) {
    const { cx, cy, index, value } = props;
    if (cx === undefined || cy === undefined || value === null || value === undefined) return <g key={index} />;
    return shape === 'square' ? (
      <rect
        key={index}
        x={cx - size}
        y={cy - size}
        width={size * 2}
        height={size * 2}
        fill={color}
        stroke={COLOR.surface}
        strokeWidth={1}
      />
    ) : (
      <circle key={index} cx={cx} cy={cy} r={size} fill={color} stroke={COLOR.surface} strokeWidth={1} />
    );
  };
}

/** The swatch of a series, drawn like the series itself (texture, or dash and marker). */
function Swatch({ series }: { series: SeriesStyle }) {
  const id = useId();
  const Definition = series.texture ? DEFINITIONS[series.texture] : null;
  if (series.dash !== undefined || series.marker) {
    return (
      <svg width="28" height="12" viewBox="0 0 28 12" aria-hidden="true" className="shrink-0">
        <line x1="1" y1="6" x2="27" y2="6" stroke={series.color} strokeWidth="2" strokeDasharray={series.dash} />
        {series.marker === 'square' ? (
          <rect x="10" y="2" width="8" height="8" fill={series.color} />
        ) : (
          <circle cx="14" cy="6" r="4" fill={series.color} />
        )}
      </svg>
    );
  }
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" className="shrink-0">
      {Definition && (
        <defs>
          <Definition id={id} color={series.color} />
        </defs>
      )}
      <rect x="0.5" y="0.5" width="13" height="13" rx="2" fill={Definition ? `url(#${id})` : series.color} stroke={COLOR.axis} />
    </svg>
  );
}

/** The chart's key, in the page (not in the image): each series' name beside a swatch drawn like it. */
export function Legend({ series }: { series: SeriesStyle[] }) {
  return (
    <ul className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-200">
      {series.map((s) => (
        <li key={s.label} className="flex items-center gap-1.5">
          <Swatch series={s} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

interface TooltipItem {
  name?: unknown;
  value?: unknown;
  color?: string;
  dataKey?: unknown;
}

/** A tooltip in the app's colours (Recharts' own is white in both themes). Mouse users' extra; the table is the text. */
export function ChartTooltip({
  active,
  payload,
  label,
  labelFormatter,
  valueFormatter,
}: {
  active?: boolean;
  payload?: readonly TooltipItem[];
  label?: unknown;
  labelFormatter?: (label: string) => string;
  valueFormatter?: (value: number, item: TooltipItem) => string;
}) {
  if (!active || !payload?.length) return null;
  const title = labelFormatter ? labelFormatter(String(label)) : String(label ?? '');
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-xs shadow-md dark:border-slate-600 dark:bg-slate-800">
      <p className="mb-1 font-semibold text-slate-900 dark:text-slate-100">{title}</p>
      <ul className="space-y-0.5">
        {payload.map((item) => (
          <li key={String(item.dataKey ?? item.name)} className="text-slate-700 dark:text-slate-200">
            {String(item.name ?? '')}:{' '}
            <span className="font-medium">
              {typeof item.value === 'number' && valueFormatter ? valueFormatter(item.value, item) : String(item.value ?? '–')}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The tooltip's hover band, in the grid's colour so it stays quiet in the dark theme. */
export const tooltipCursor = { fill: COLOR.grid, fillOpacity: 0.5, stroke: 'none' } as const;
