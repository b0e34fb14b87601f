import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsQuery } from '../../../../domain/schemas/analytics';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { errorText } from '../../../lib/errors';
import { csvFileName, weekTick } from '../analytics-data';
import { CHARTS, TEXT } from '../analytics-text';
import { useTimeAnalytics } from '../api/get-analytics';
import {
  estimateSummary,
  estimateTable,
  splitOf,
  stackedSeries,
  TIME_SPLIT_LABEL,
  TIME_SPLIT_LABELS,
  TIME_SPLITS,
  type TimeSplitBy,
  timeLoggedSummary,
  timeLoggedTable,
} from '../time-analytics-data';
import { ChartSection } from './chart-section';
import {
  axisProps,
  COLOR,
  ChartFrame,
  ChartTooltip,
  gridProps,
  Legend,
  type SeriesStyle,
  seriesFill,
  tooltipCursor,
} from './chart-kit';

/** The stacked series' colours and textures, told apart by both (as the legend draws them). */
const STACK_STYLES: readonly Pick<SeriesStyle, 'color' | 'texture'>[] = [
  { color: COLOR.primary },
  { color: COLOR.accent, texture: 'diagonal' },
  { color: COLOR.green, texture: 'dots' },
  { color: COLOR.low, texture: 'crosshatch' },
  { color: COLOR.high, texture: 'horizontal' },
  { color: COLOR.axis, texture: 'diagonal' },
];

const weekLabel = (week: string) => `Week of ${weekTick(week)}`;
const hoursText = (value: number) => `${value} h`;

/**
 * 'Time logged' and 'Estimate vs actual' (issue 39): their own request (GET /api/analytics/time) over the page's scope
 * and period, so the other charts do not wait for them.
 */
export function TimeSections({ query }: { query: AnalyticsQuery }) {
  const { splitBy: _, ...scope } = query;
  const time = useTimeAnalytics(scope);
  const [by, setBy] = useState<TimeSplitBy>('person');
  if (!time.data) {
    return (
      <>
        {(['time-logged', 'estimate-vs-actual'] as const).map((id) => (
          <Card key={id} className="min-w-0 p-4 sm:p-5">
            <section aria-label={CHARTS[id].title} className="flex flex-col gap-3">
              <h2 className="text-base font-semibold">{CHARTS[id].title}</h2>
              {time.isError ? (
                <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
                  {errorText(time.error, TEXT.loadFailed)}
                </p>
              ) : (
                <div role="status" className="h-56 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800">
                  <span className="sr-only">{TEXT.loading}</span>
                </div>
              )}
            </section>
          </Card>
        ))}
      </>
    );
  }
  const dto = time.data;
  const date = dto.scope.to;
  const stacked = stackedSeries(splitOf(dto, by), by);
  const styles: SeriesStyle[] = stacked.names.map((label, i) => ({ label, ...STACK_STYLES[i % STACK_STYLES.length]! }));
  const data = stacked.weeks.map((w) => ({ week: w.week, ...Object.fromEntries(w.hours.map((h, i) => [`s${i}`, h])) }));
  return (
    <>
      <ChartSection
        {...CHARTS['time-logged']}
        table={timeLoggedTable(dto, by)}
        fileName={csvFileName('time-logged', date, by)}
        emptyTable="No time logged."
        controls={
          <SelectField
            label={TIME_SPLIT_LABEL}
            value={by}
            onChange={(e) => setBy(e.target.value as TimeSplitBy)}
            className="w-40"
          >
            {TIME_SPLITS.map((s) => (
              <option key={s} value={s}>
                {TIME_SPLIT_LABELS[s]}
              </option>
            ))}
          </SelectField>
        }
      >
        <ChartFrame>
          <Legend series={styles} />
          <BarChart
            data={data}
            role="img"
            aria-label={timeLoggedSummary(dto, by)}
            accessibilityLayer={false}
            responsive
            margin={{ top: 20, right: 12, bottom: 0, left: 0 }}
            style={{ width: '100%', height: 240 }}
          >
            <CartesianGrid vertical={false} {...gridProps} />
            <XAxis dataKey="week" tickFormatter={weekTick} interval="preserveStartEnd" minTickGap={16} {...axisProps} />
            <YAxis width={40} {...axisProps} unit=" h" />
            <Tooltip content={<ChartTooltip labelFormatter={weekLabel} valueFormatter={hoursText} />} cursor={tooltipCursor} />
            {styles.map((st, i) => (
              <Bar
                key={stacked.keys[i]}
                dataKey={`s${i}`}
                name={st.label}
                stackId="time"
                fill={seriesFill(st.color, st.texture)}
                maxBarSize={48}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ChartFrame>
      </ChartSection>
      <ChartSection
        {...CHARTS['estimate-vs-actual']}
        table={estimateTable(dto)}
        fileName={csvFileName('estimate-vs-actual', date)}
        tableOnly
        emptyTable="No completed task with an estimate and time logged."
        controls={<p className="text-sm font-medium text-slate-800 dark:text-slate-100">{estimateSummary(dto)}</p>}
      />
    </>
  );
}
