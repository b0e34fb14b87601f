import { useState } from 'react';
import { REPEAT_MODE_LABELS, REPEAT_MODES, type RepeatMode } from '../../../../domain/constants';
import { describeRepeat, REPEAT_PRESETS, type RepeatPreset, repeatPresetLabels } from '../../../../domain/recurrence';
import { Button } from '../../../components/ui/button';
import { labelled, OptionsSelect } from '../../../components/ui/options-select';
import { choiceOfRule, type RepeatChoice, ruleOfChoice } from '../repeat-choice';
import { RepeatCustomDialog } from './repeat-custom-dialog';

/** What each mode does, under its menu. */
export const REPEAT_MODE_HINTS: Record<RepeatMode, string> = {
  on_completion: 'The next task is made when this one is completed.',
  on_schedule: 'Each task is made on its date, done or not.',
};

export interface RepeatPickerProps {
  value: RepeatChoice;
  /** What the task's dates start at: its due date, else today (the presets' weekday and day of the month). */
  anchor: string;
  onChange: (choice: RepeatChoice) => void;
  disabled?: boolean;
  /** Each of the two fields' classes (their place in the form's grid). */
  fieldClassName?: string;
  error?: string;
}

/**
 * 'Repeat' (issue 39): 'Does not repeat', the presets for the anchor ('Weekly on Monday'…), 'Custom…' (a dialog that
 * builds the rule), and, when it repeats, the mode: 'When completed' or 'On schedule'. Two fields side by side in a
 * form's grid.
 */
export function RepeatPicker({ value, anchor, onChange, disabled, fieldClassName, error }: RepeatPickerProps) {
  const [customOpen, setCustomOpen] = useState(false);
  const labels = repeatPresetLabels(anchor);
  const options = REPEAT_PRESETS.map((preset) => ({ value: preset, label: labels[preset] }));
  const rule = ruleOfChoice(value, anchor);

  const choose = (preset: RepeatPreset) => {
    // 'Custom…' is a question first: the choice changes only once the dialog hands a rule back.
    if (preset === 'custom') setCustomOpen(true);
    else onChange({ preset, customRule: null, mode: value.mode });
  };

  return (
    <>
      <OptionsSelect
        label="Repeat"
        className={fieldClassName}
        value={value.preset}
        disabled={disabled}
        options={options}
        error={error}
        onChange={(e) => choose(e.target.value as RepeatPreset)}
        hint={
          value.preset === 'custom' && rule ? (
            <span className="inline-flex flex-wrap items-center gap-x-2">
              <span data-testid="repeat-custom-rule">{describeRepeat(rule)}</span>
              <Button variant="link" className="text-xs" disabled={disabled} onClick={() => setCustomOpen(true)}>
                Edit custom repeat
              </Button>
            </span>
          ) : undefined
        }
      />
      {rule !== null && (
        <OptionsSelect
          label="Repeat mode"
          className={fieldClassName}
          value={value.mode}
          disabled={disabled}
          options={labelled(REPEAT_MODES, REPEAT_MODE_LABELS)}
          hint={REPEAT_MODE_HINTS[value.mode]}
          onChange={(e) => onChange({ ...value, mode: e.target.value as RepeatMode })}
        />
      )}
      <RepeatCustomDialog
        open={customOpen}
        anchor={anchor}
        rule={rule}
        onCancel={() => setCustomOpen(false)}
        onDone={(built) => {
          setCustomOpen(false);
          onChange(choiceOfRule(built, value.mode, anchor));
        }}
      />
    </>
  );
}
