import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

export interface RangeNavProps {
  /** What a step is ('month', 'week', 'quarter'): the arrows are 'Previous month' and 'Next month'. */
  unit: string;
  /** The shown range's name ('November 2026'). */
  title: string;
  onToday: () => void;
  /** -1: back a unit; +1: on a unit. */
  onStep: (step: number) => void;
  /** The title is read out when it changes. */
  isTitleLive?: boolean;
  titleTestId?: string;
}

/** 'Today', previous and next, and the shown range's name: the calendar's and the timeline's way through time. */
export function RangeNav({ unit, title, onToday, onStep, isTitleLive, titleTestId }: RangeNavProps) {
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <Button variant="secondary" size="sm" onClick={onToday}>
        Today
      </Button>
      <div className="flex items-center">
        <Button variant="ghost" size="icon" onClick={() => onStep(-1)} aria-label={`Previous ${unit}`} title={`Previous ${unit}`}>
          <ChevronLeft className="h-5 w-5" aria-hidden />
        </Button>
        <Button variant="ghost" size="icon" onClick={() => onStep(1)} aria-label={`Next ${unit}`} title={`Next ${unit}`}>
          <ChevronRight className="h-5 w-5" aria-hidden />
        </Button>
      </div>
      <h2 className="text-lg font-semibold" aria-live={isTitleLive ? 'polite' : undefined} data-testid={titleTestId}>
        {title}
      </h2>
    </div>
  );
}
