import { useCallback, useState } from 'react';

/** Form values with per-field errors; a field's error clears when that field is edited. */
export function useFormState<T extends Record<string, unknown>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof T, string>>>({});
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
  return { values, errors, setErrors, setField, reset, setValues };
}
