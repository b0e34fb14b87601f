import { create, type StateCreator } from 'zustand';
import { type PersistOptions, persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '../../domain/constants';

/** A store kept in the browser under one of the spec's storage keys, the only keys the client writes. */
export function createPersistedStore<T>(
  key: keyof typeof STORAGE_KEYS,
  init: StateCreator<T, [['zustand/persist', unknown]]>,
  options: Omit<PersistOptions<T>, 'name'> = {},
) {
  return create<T>()(persist(init, { ...options, name: STORAGE_KEYS[key] }));
}
