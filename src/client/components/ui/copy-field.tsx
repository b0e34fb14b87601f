import { Copy } from 'lucide-react';
import { type RefObject, useRef } from 'react';
import { toast } from 'sonner';
import { Button } from './button';
import { inputClass } from './field';

export interface CopyFieldProps {
  /** The input's id, for the caller's `<label htmlFor>`. */
  id: string;
  value: string;
  /** The id of the text that explains the value (e.g. that it is shown only once). */
  describedBy: string;
  /** The button's text, and the toasts after a copy and after a failed one (the field is then selected). */
  labels: { copy: string; copied: string; copyFailed: string };
  autoFocus?: boolean;
  /** The input, for a caller that selects it itself. */
  inputRef?: RefObject<HTMLInputElement | null>;
}

/**
 * A secret shown once (a token, a signing secret, a private link): a read-only field that selects itself on focus,
 * and a Copy button beside it (below it on narrow screens).
 */
export function CopyField({ id, value, describedBy, labels, autoFocus, inputRef }: CopyFieldProps) {
  const ownRef = useRef<HTMLInputElement>(null);
  const fieldRef = inputRef ?? ownRef;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(labels.copied);
    } catch {
      fieldRef.current?.select();
      toast.error(labels.copyFailed);
    }
  };
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <input
        ref={fieldRef}
        id={id}
        readOnly
        value={value}
        aria-describedby={describedBy}
        onFocus={(e) => e.currentTarget.select()}
        autoFocus={autoFocus}
        className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
      />
      <Button variant="secondary" onClick={() => void copy()} className="justify-center">
        <Copy className="h-4 w-4" aria-hidden />
        {labels.copy}
      </Button>
    </div>
  );
}
