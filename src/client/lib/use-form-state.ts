import { type ChangeEvent, useCallback, useState } from 'react';
import type { z } from 'zod';
import { parseForm } from '../../domain/forms';

type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
type Errors<T> = Partial<Record<keyof T, string>>;

/**
 * Every form's state: values, per-field errors (a field's error clears when it is edited), one
 * binding for a field (`<TextField {...bind('title')} />`), and `validate(schema)`, which checks
 * the values with the form's zod schema and shows each field's first message.
 */
export function useFormState<T extends Record<string, unknown>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Errors<T>>({});
  const setField = useCallback(<K extends keyof T>(key: K, value: T[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => {
      if (!e[key]) return e;
      const next = { ...e };
      delete next[key];
      return next;
    });
  }, []);
  const reset = useCallback(() => {
    setValues(initial);
    setErrors({});
  }, [initial]);

  /** Value, change handler and error of a text, select or textarea field. */
  const bind = <K extends keyof T & string>(key: K) => ({
    name: key,
    value: values[key] as string,
    error: errors[key],
    onChange: (e: ChangeEvent<FieldElement>) => setField(key, e.target.value as T[K]),
  });

  /** The same for a checkbox. */
  const bindChecked = <K extends keyof T & string>(key: K) => ({
    name: key,
    checked: Boolean(values[key]),
    onChange: (e: ChangeEvent<HTMLInputElement>) => setField(key, e.target.checked as T[K]),
  });

  /** The parsed body, or null after showing each field's first message. */
  const validate = <S extends z.ZodType>(schema: S, input: unknown = values): z.output<S> | null => {
    const result = parseForm(schema, input);
    setErrors(result.ok ? {} : (result.errors as Errors<T>));
    return result.ok ? result.data : null;
  };

  /** Field messages from a failed save (`ApiError.fields`), for the fields this form has; true when it had any. */
  const showFieldErrors = (fields: Record<string, string>): boolean => {
    const known = Object.entries(fields).filter(([key]) => key in values);
    if (known.length) setErrors(Object.fromEntries(known) as Errors<T>);
    return known.length > 0;
  };

  return { values, errors, setErrors, setField, reset, setValues, bind, bindChecked, validate, showFieldErrors };
}

export type FormState<T extends Record<string, unknown>> = ReturnType<typeof useFormState<T>>;
