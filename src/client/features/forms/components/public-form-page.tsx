import { CheckCircle2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { FORM_NOT_FOUND, OUTSIDE_TEXTS } from '../../../../domain/outside-texts';
import type { PublicFormFieldDto } from '../../../../domain/schemas/outside';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { errorText, isError, logError } from '../../../lib/errors';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { getPublicForm, type SubmittedValue, submitPublicForm } from '../api/public-api';
import { PublicCard } from './public-card';
import { usePublicLoad } from './use-public-load';

const FAILED = 'Could not send your request. Please try again.';

/**
 * /forms/:token (issue 40): a project's request form, for anyone with its link and without signing in. The fields the
 * form asks, each with its label, help text and required mark; the server's errors beside their fields; a hidden
 * honeypot (`website`) a person never fills; then 'Thanks! Your request was received.'
 */
export function PublicFormPage() {
  const { token = '' } = useParams();
  const form = usePublicLoad(token, (signal) => getPublicForm(token, signal));
  const definition = form.state === 'done' ? form.data : null;
  useDocumentTitle(definition?.name ?? 'Request form');
  const [values, setValues] = useState<Record<string, SubmittedValue>>({});
  const [website, setWebsite] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [closed, setClosed] = useState(false);
  const thanks = useRef<HTMLParagraphElement>(null);
  const honeypotId = useId();

  useEffect(() => {
    if (sent) thanks.current?.focus();
  }, [sent]);

  if (form.state === 'loading') return <Spinner className="min-h-screen" label="Loading the form…" />;
  if (closed || (form.state === 'failed' && isError(form.error, 'form_closed'))) {
    return (
      <PublicCard title={definition?.name ?? 'Request form'}>
        <p role="status">{OUTSIDE_TEXTS.formClosed}</p>
      </PublicCard>
    );
  }
  if (form.state === 'failed') {
    const missing = isError(form.error, 'not_found') || isError(form.error, 'validation_failed');
    return (
      <PublicCard title={missing ? 'Form not found' : 'Request form'}>
        <p role="status">
          {missing ? FORM_NOT_FOUND : errorText(form.error, 'Could not load the form. Please try again later.')}
        </p>
      </PublicCard>
    );
  }
  const { name, intro, projectName, fields } = form.data;

  if (sent) {
    return (
      <PublicCard title={name} subtitle={projectName}>
        <p
          ref={thanks}
          tabIndex={-1}
          role="status"
          className="flex items-center gap-2 text-base font-medium text-green-800 focus:outline-none dark:text-green-300"
        >
          <CheckCircle2 className="h-5 w-5 shrink-0" aria-hidden />
          {OUTSIDE_TEXTS.submitted}
        </p>
      </PublicCard>
    );
  }

  const set = (key: string, value: SubmittedValue) => setValues((all) => ({ ...all, [key]: value }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const filled = Object.fromEntries(
      Object.entries(values).filter(([, v]) => v !== null && v !== '' && v !== false && !(Array.isArray(v) && v.length === 0)),
    );
    setSending(true);
    setFailure(null);
    try {
      await submitPublicForm(token, filled, website);
      setSent(true);
    } catch (error) {
      logError('Sending a request failed', error);
      if (isError(error, 'form_closed')) setClosed(true);
      else if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        setErrors(error.fields);
        const known = new Set(fields.map((f) => f.key));
        const stray = Object.entries(error.fields).find(([key]) => !known.has(key));
        setFailure(stray ? stray[1] : null);
        // The first field in error takes the focus.
        const first = fields.find((f) => error.fields[f.key]);
        if (first) document.getElementById(`field-${first.key}`)?.focus();
      } else {
        setErrors({});
        setFailure(errorText(error, FAILED));
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <PublicCard title={name} subtitle={projectName}>
      {intro && <p className="mb-6 whitespace-pre-line text-sm text-slate-700 dark:text-slate-200">{intro}</p>}
      <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={name}>
        {fields.map((field) => (
          <PublicField
            key={field.key}
            field={field}
            value={values[field.key] ?? null}
            error={errors[field.key]}
            onChange={(v) => set(field.key, v)}
          />
        ))}
        {/* The honeypot: off-screen and out of the tab order, never announced; a person leaves it empty. */}
        <div aria-hidden="true" className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
          <label htmlFor={honeypotId}>Website</label>
          <input
            id={honeypotId}
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={website}
            onChange={(e) => setWebsite(e.target.value)}
          />
        </div>
        {failure && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {failure}
          </p>
        )}
        <Button type="submit" size="lg" isLoading={sending} className="w-full justify-center sm:w-auto">
          Send request
        </Button>
      </form>
    </PublicCard>
  );
}

interface PublicFieldProps {
  field: PublicFormFieldDto;
  value: SubmittedValue;
  error?: string;
  onChange: (value: SubmittedValue) => void;
}

/** One field of the public form: its label (with a required mark), its control, its help text and its error. */
function PublicField({ field, value, error, onChange }: PublicFieldProps) {
  const id = `field-${field.key}`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [field.help ? helpId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field.key,
    required: field.required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  } as const;
  const text = typeof value === 'string' ? value : '';
  const mark = field.required ? (
    <span className="text-red-700 dark:text-red-400" aria-hidden>
      {' '}
      *
    </span>
  ) : (
    <span className="font-normal text-slate-600 dark:text-slate-400"> (optional)</span>
  );
  const label = (
    <>
      {field.label}
      {mark}
    </>
  );

  let control: ReactNode;
  switch (field.type) {
    case 'markdown':
      control = (
        <textarea
          {...common}
          rows={5}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          className={`${inputClass} min-h-28`}
        />
      );
      break;
    case 'priority':
    case 'select':
      control = (
        <select {...common} value={text} onChange={(e) => onChange(e.target.value || null)} className={inputClass}>
          <option value="">Choose…</option>
          {(field.options ?? []).map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'multi_select': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset aria-describedby={describedBy} className="space-y-1">
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">
            {label}
            {/* A group has no `required` of its own: the mark is said in words. */}
            {field.required && <span className="sr-only"> (required)</span>}
          </legend>
          <div id={id} tabIndex={-1} className="flex flex-wrap gap-x-4 gap-y-1">
            {(field.options ?? []).map((o) => (
              <label key={o.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={chosen.includes(o.id)}
                  onChange={(e) => onChange(e.target.checked ? [...chosen, o.id] : chosen.filter((c) => c !== o.id))}
                  className="h-4 w-4 accent-brand-600"
                />
                {o.label}
              </label>
            ))}
          </div>
          <Hints field={field} helpId={helpId} error={error} errorId={errorId} />
        </fieldset>
      );
    }
    case 'checkbox':
      return (
        <div className="space-y-1">
          <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium text-slate-700 dark:text-slate-200">
            <input
              {...common}
              type="checkbox"
              checked={value === true}
              onChange={(e) => onChange(e.target.checked)}
              className="h-4 w-4 accent-brand-600"
            />
            {label}
          </label>
          <Hints field={field} helpId={helpId} error={error} errorId={errorId} />
        </div>
      );
    default: {
      const type = { text: 'text', email: 'email', date: 'date', number: 'number', url: 'url' }[field.type] ?? 'text';
      control = (
        <input
          {...common}
          type={type}
          value={typeof value === 'number' ? String(value) : text}
          autoComplete={field.type === 'email' ? 'email' : undefined}
          inputMode={field.type === 'number' ? 'decimal' : undefined}
          onChange={(e) => {
            const raw = e.target.value;
            onChange(field.type === 'number' && raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw);
          }}
          className={inputClass}
        />
      );
    }
  }
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      {control}
      <Hints field={field} helpId={helpId} error={error} errorId={errorId} />
    </div>
  );
}

function Hints({
  field,
  helpId,
  error,
  errorId,
}: {
  field: PublicFormFieldDto;
  helpId: string;
  error?: string;
  errorId: string;
}) {
  return (
    <>
      {field.help && (
        <p id={helpId} className="text-xs text-slate-600 dark:text-slate-400">
          {field.help}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </>
  );
}
