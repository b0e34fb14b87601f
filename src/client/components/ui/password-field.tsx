import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { TextField, type TextFieldProps } from './field';

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'trailing'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          className="rounded-md p-2 text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
        >
          {visible ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
        </button>
      }
    />
  );
}

export function PasswordRequirements({ items }: { items: { label: string; met: boolean }[] }) {
  return (
    <ul className="space-y-0.5 text-xs" aria-label="Password requirements">
      {items.map((item) => (
        <li key={item.label} className={item.met ? 'text-green-700 dark:text-green-400' : 'text-slate-600 dark:text-slate-400'}>
          <span aria-hidden>{item.met ? '✓' : '○'}</span> {item.label}
          <span className="sr-only">{item.met ? ' (met)' : ' (not met)'}</span>
        </li>
      ))}
    </ul>
  );
}
