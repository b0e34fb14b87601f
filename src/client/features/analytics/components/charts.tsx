import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  type BarShapeProps,
  CartesianGrid,
  LabelList,
  Line,
  LineChart,
  Rectangle,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { TASK_PRIORITIES } from '../../../../domain/constants';
import { formatShortDate } from '../../../../domain/dates';
import type { AnalyticsDto, CumulativeFlowDto } from '../../../../domain/schemas/analytics';
import {
  assigneeName,
  type BurnupProject,
  type WorkloadRow,
  burnupSummary,
  cumulativeFlowSummary,
  cycleTimeSummary,
  distributionSummary,
  flowStatusLabel,
  formatHours,
  hoursToDays,
  overdueSummary,
  priorityLabel,
  throughputSummary,
  weekTick,
  wipSummary,
  workloadSummary,
} from '../analytics-data';
import {
  axisProps,
  COLOR,
  ChartFrame,
  ChartTooltip,
  gridProps,
  Legend,
  labelProps,
  markerDot,
  type SeriesStyle,
  seriesFill,
  type Texture,
  tooltipCursor,
} from './chart-kit';

/**
 * The page's charts (Recharts, SVG). Each SVG is one image to assistive technology (role="img", its summary as
 * the name); its section's table holds every figure. Recharts' keyboard layer is off: the table is the way in.
 */

const HEIGHT = 240;
/** Up to this many bars or points carry their value as a direct label; more would collide at 390 px. */
const MAX_LABELLED = 13;
const MARGIN = { top: 20, right: 12, bottom: 0, left: 0 };

/** A chart's own props: one image named by its summary, the card's width and `height` tall. */
const imageProps = (summary: string, height = HEIGHT) => ({
  role: 'img',
  'aria-label': summary,
  accessibilityLayer: false,
  responsive: true,
  margin: MARGIN,
  style: { width: '100%', height },
});

const weekLabel = (week: string) => `Week of ${weekTick(week)}`;
const endOfWeekLabel = (week: string) => `End of the week of ${weekTick(week)}`;
const hideZero = (value: unknown) => (value === 0 || value === null ? '' : String(value));
/** Horizontal grid lines only. */
const rowGrid = { vertical: false, ...gridProps } as const;
const xWeeks = { dataKey: 'week', tickFormatter: weekTick, interval: 'preserveStartEnd', minTickGap: 16, ...axisProps } as const;
const yCounts = { allowDecimals: false, width: 36, ...axisProps } as const;
const lineCursor = { stroke: COLOR.axis } as const;

/** One series of bars in the main colour, not animated. */
const countBars = (dataKey: string, name: string, maxBarSize: number) => ({
  dataKey,
  name,
  fill: COLOR.primary,
  maxBarSize,
  isAnimationActive: false,
});
/** Each bar's or point's value above it. */
const topLabel = (dataKey: string) => ({ dataKey, position: 'top', ...labelProps }) as const;

/** A line series drawn in its style: colour, dash (if any) and marker, no hover dot, no animation. */
const seriesLine = (dataKey: string, series: SeriesStyle) => ({
  dataKey,
  name: series.label,
  stroke: series.color,
  strokeWidth: 2,
  ...(series.dash ? { strokeDasharray: series.dash } : {}),
  dot: markerDot(series.marker ?? 'circle', series.color),
  activeDot: false,
  isAnimationActive: false,
});

/** Split series (issue 38): the options' colours, neighbours told apart by texture or dash too (as the legend draws). */
const SPLIT_TEXTURES: readonly (Texture | undefined)[] = [undefined, 'diagonal', 'dots', 'crosshatch', 'horizontal'];
const SPLIT_DASHES: readonly string[] = ['', '6 4', '2 3', '8 3 2 3'];
const splitBarStyles = (split: NonNullable<AnalyticsDto['split']>): SeriesStyle[] =>
  split.series.map((s, i) => ({ label: s.name, color: s.color, texture: SPLIT_TEXTURES[i % SPLIT_TEXTURES.length] }));
const splitLineStyles = (split: NonNullable<AnalyticsDto['split']>): SeriesStyle[] =>
  split.series.map((s, i) => ({
    label: s.name,
    color: s.color,
    dash: SPLIT_DASHES[i % SPLIT_DASHES.length]!,
    marker: i % 2 ? 'square' : 'circle',
  }));

/** Throughput split by a Select field: a stacked bar per week, a segment per option (and 'No value'). */
function SplitThroughputChart({ dto, split }: { dto: AnalyticsDto; split: NonNullable<AnalyticsDto['split']> }) {
  const styles = splitBarStyles(split);
  const data = split.throughput.map((w) => ({
    week: w.week,
    ...Object.fromEntries(w.counts.map((n, i) => [`s${i}`, n])),
  }));
  return (
    <ChartFrame>
      <Legend series={styles} />
      <BarChart data={data} {...imageProps(throughputSummary(dto))}>
        <CartesianGrid {...rowGrid} />
        <XAxis {...xWeeks} />
        <YAxis {...yCounts} />
        <Tooltip content={<ChartTooltip labelFormatter={weekLabel} />} cursor={tooltipCursor} />
        {styles.map((st, i) => (
          <Bar
            key={split.series[i]!.optionId ?? 'none'}
            dataKey={`s${i}`}
            name={st.label}
            stackId="split"
            fill={seriesFill(st.color, st.texture)}
            maxBarSize={48}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFrame>
  );
}

export function ThroughputChart({ dto }: { dto: AnalyticsDto }) {
  if (dto.split) return <SplitThroughputChart dto={dto} split={dto.split} />;
  return (
    <ChartFrame>
      <BarChart data={dto.throughput} {...imageProps(throughputSummary(dto))}>
        <CartesianGrid {...rowGrid} />
        <XAxis {...xWeeks} />
        <YAxis {...yCounts} />
        <Tooltip content={<ChartTooltip labelFormatter={weekLabel} />} cursor={tooltipCursor} />
        <Bar {...countBars('completed', 'Completed', 48)}>
          {dto.throughput.length <= MAX_LABELLED && <LabelList {...topLabel('completed')} formatter={hideZero} />}
        </Bar>
      </BarChart>
    </ChartFrame>
  );
}

const CYCLE_SERIES: SeriesStyle[] = [
  { label: 'Median', color: COLOR.primary, marker: 'circle', dash: '' },
  { label: '85th percentile', color: COLOR.accent, marker: 'square', dash: '6 4' },
];

/**
 * The median and 85th percentile per week; split by a Select field (issue 38), the median per week, a line per option
 * (and 'No value').
 */
export function CycleTimeChart({ dto }: { dto: AnalyticsDto }) {
  const split = dto.split;
  const styles = split ? splitLineStyles(split) : CYCLE_SERIES;
  const data = split
    ? split.cycleTime.map((w) => ({
        week: w.week,
        ...Object.fromEntries(w.series.map((c, i) => [`s${i}`, hoursToDays(c.medianHours)])),
      }))
    : dto.cycleTime.weeks.map((w) => ({ week: w.week, s0: hoursToDays(w.medianHours), s1: hoursToDays(w.p85Hours) }));
  return (
    <ChartFrame>
      <Legend series={styles} />
      <LineChart data={data} {...imageProps(cycleTimeSummary(dto))}>
        <CartesianGrid {...rowGrid} />
        <XAxis {...xWeeks} />
        <YAxis width={44} tickFormatter={(days: number) => `${days} d`} {...axisProps} />
        <Tooltip
          content={<ChartTooltip labelFormatter={weekLabel} valueFormatter={(days) => formatHours(days * 24) ?? '–'} />}
          cursor={lineCursor}
        />
        {styles.map((st, i) => (
          <Line
            key={split ? (split.series[i]!.optionId ?? 'none') : st.label}
            {...seriesLine(`s${i}`, st)}
            connectNulls={Boolean(split)}
          />
        ))}
      </LineChart>
    </ChartFrame>
  );
}

export function DistributionChart({ dto }: { dto: AnalyticsDto }) {
  return (
    <ChartFrame>
      <BarChart data={dto.cycleTime.distribution} {...imageProps(distributionSummary(dto))}>
        <CartesianGrid {...rowGrid} />
        <XAxis dataKey="label" interval={0} {...axisProps} tick={{ ...axisProps.tick, fontSize: 11 }} />
        <YAxis {...yCounts} />
        <Tooltip content={<ChartTooltip />} cursor={tooltipCursor} />
        <Bar {...countBars('count', 'Tasks', 56)}>
          <LabelList {...topLabel('count')} formatter={hideZero} />
        </Bar>
      </BarChart>
    </ChartFrame>
  );
}

const BURNUP_SERIES: SeriesStyle[] = [
  { label: 'Scope', color: COLOR.accent, marker: 'square', dash: '6 4' },
  { label: 'Completed', color: COLOR.green, marker: 'circle', dash: '' },
];

export function BurnupChart({ project }: { project: BurnupProject }) {
  const [scope, completed] = BURNUP_SERIES as [SeriesStyle, SeriesStyle];
  return (
    <ChartFrame>
      <Legend series={BURNUP_SERIES} />
      <LineChart data={project.points} {...imageProps(burnupSummary(project))}>
        <CartesianGrid {...rowGrid} />
        <XAxis {...xWeeks} />
        <YAxis {...yCounts} />
        <Tooltip content={<ChartTooltip labelFormatter={endOfWeekLabel} />} cursor={lineCursor} />
        <Line {...seriesLine('scope', scope)} />
        <Line {...seriesLine('completed', completed)} />
      </LineChart>
    </ChartFrame>
  );
}

/** A bar in its status's (or category's) colour; its name is on the axis, its count above it. */
const statusBar = (props: BarShapeProps) => <Rectangle {...props} fill={(props.payload as { color: string }).color} />;

export function WipChart({ dto }: { dto: AnalyticsDto }) {
  const data = dto.wip.map((w) => ({ status: w.name, count: w.count, color: w.color }));
  return (
    <ChartFrame>
      <BarChart data={data} {...imageProps(wipSummary(dto))}>
        <CartesianGrid {...rowGrid} />
        <XAxis dataKey="status" interval={0} {...axisProps} />
        <YAxis {...yCounts} />
        <Tooltip content={<ChartTooltip />} cursor={tooltipCursor} />
        <Bar {...countBars('count', 'Open tasks', 64)} shape={statusBar}>
          <LabelList {...topLabel('count')} />
        </Bar>
      </BarChart>
    </ChartFrame>
  );
}

const PRIORITY_TEXTURE: Record<(typeof TASK_PRIORITIES)[number], Texture | undefined> = {
  low: undefined,
  medium: 'diagonal',
  high: 'dots',
  urgent: 'crosshatch',
};
const WORKLOAD_SERIES: (SeriesStyle & { key: (typeof TASK_PRIORITIES)[number] })[] = TASK_PRIORITIES.map((p) => ({
  key: p,
  label: priorityLabel(p),
  color: COLOR[p],
  texture: PRIORITY_TEXTURE[p],
}));
const ROW_HEIGHT = 34;
const NAME_CHARS = 12;
const shortName = (name: string) => (name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}…` : name);

/** An assignee's name on one line, shortened with its full name as a tooltip (Recharts would wrap it). */
function NameTick({ x, y, payload }: { x?: unknown; y?: unknown; payload?: { value?: unknown } }) {
  const name = String(payload?.value ?? '');
  return (
    <text x={Number(x)} y={Number(y)} dx={-4} dy="0.355em" textAnchor="end" fill="currentColor" fontSize={12}>
      <title>{name}</title>
      {shortName(name)}
    </text>
  );
}

/**
 * The row's total, right of its last segment: drawn by the last priority the row has (a zero segment has no
 * size to place a label by).
 */
function totalLabel(rows: readonly WorkloadRow[], key: (typeof TASK_PRIORITIES)[number]) {
  return function TotalLabel(props: { index?: number; x?: unknown; y?: unknown; width?: unknown; height?: unknown }) {
    const row = props.index === undefined ? undefined : rows[props.index];
    const [x, y, width, height] = [props.x, props.y, props.width, props.height].map(Number) as [number, number, number, number];
    if (!row || [x, y, width, height].some(Number.isNaN)) return null;
    const lastKey = TASK_PRIORITIES.findLast((p) => row[p] > 0);
    if (lastKey !== key) return null;
    return (
      <text x={x + width + 6} y={y + height / 2} dominantBaseline="central" {...labelProps}>
        {row.total}
      </text>
    );
  };
}

export function WorkloadChart({ dto }: { dto: AnalyticsDto }) {
  const data = dto.workload.map((w) => ({ ...w, label: assigneeName(w) }));
  const height = Math.max(120, 40 + ROW_HEIGHT * data.length);
  return (
    <ChartFrame>
      <Legend series={WORKLOAD_SERIES} />
      <BarChart
        data={data}
        layout="vertical"
        {...imageProps(workloadSummary(dto), height)}
        margin={{ ...MARGIN, top: 4, right: 32 }}
      >
        <CartesianGrid horizontal={false} {...gridProps} />
        <XAxis type="number" allowDecimals={false} {...axisProps} />
        <YAxis type="category" dataKey="label" width={104} interval={0} {...axisProps} tick={NameTick} />
        <Tooltip content={<ChartTooltip />} cursor={tooltipCursor} />
        {WORKLOAD_SERIES.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stackId="priority"
            fill={seriesFill(s.color, s.texture)}
            // Outlined in the text colour: every segment keeps 3:1 against the card and its neighbours.
            stroke="currentColor"
            strokeWidth={1}
            maxBarSize={24}
            isAnimationActive={false}
          >
            <LabelList dataKey="total" content={totalLabel(data, s.key)} />
          </Bar>
        ))}
      </BarChart>
    </ChartFrame>
  );
}

const OVERDUE_SERIES: SeriesStyle = { label: 'Overdue', color: COLOR.accent, marker: 'circle' };

export function OverdueChart({ dto }: { dto: AnalyticsDto }) {
  return (
    <ChartFrame>
      <LineChart data={dto.overdue} {...imageProps(overdueSummary(dto))}>
        <CartesianGrid {...rowGrid} />
        <XAxis {...xWeeks} />
        <YAxis {...yCounts} />
        <Tooltip content={<ChartTooltip labelFormatter={endOfWeekLabel} />} cursor={lineCursor} />
        <Line {...seriesLine('count', OVERDUE_SERIES)}>
          {dto.overdue.length <= MAX_LABELLED && <LabelList {...topLabel('count')} />}
        </Line>
      </LineChart>
    </ChartFrame>
  );
}

/** Neighbouring statuses differ by texture as well as colour (the legend draws the same). */
const FLOW_TEXTURES: readonly (Texture | undefined)[] = [undefined, 'diagonal', 'dots', 'crosshatch', 'horizontal'];
const dayLabel = (day: string) => `End of ${formatShortDate(day)}`;

/** Tasks per status each day, stacked in workflow order (the first status at the bottom), in the statuses' colours. */
export function CumulativeFlowChart({ dto }: { dto: CumulativeFlowDto }) {
  const series = dto.statuses.map((status, i) => ({
    key: `s${i}`,
    label: flowStatusLabel(status),
    color: status.color,
    texture: FLOW_TEXTURES[i % FLOW_TEXTURES.length],
  }));
  const data = dto.days.map((d) => ({ day: d.day, ...Object.fromEntries(d.counts.map((n, i) => [`s${i}`, n])) }));
  return (
    <ChartFrame>
      <Legend series={series} />
      <AreaChart data={data} {...imageProps(cumulativeFlowSummary(dto), 280)}>
        <CartesianGrid {...rowGrid} />
        <XAxis dataKey="day" tickFormatter={formatShortDate} interval="preserveStartEnd" minTickGap={16} {...axisProps} />
        <YAxis {...yCounts} />
        <Tooltip content={<ChartTooltip labelFormatter={dayLabel} />} cursor={lineCursor} />
        {series.map((s) => (
          <Area
            key={s.key}
            type="linear"
            dataKey={s.key}
            name={s.label}
            stackId="flow"
            fill={seriesFill(s.color, s.texture)}
            fillOpacity={0.9}
            // Outlined in the text colour: each band keeps its edge against the card and its neighbours.
            stroke="currentColor"
            strokeWidth={1}
            dot={false}
            activeDot={false}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </ChartFrame>
  );
}
