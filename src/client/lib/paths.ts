/** The tasks page filtered to one project (its `project` URL filter). */
export const projectTasksPath = (projectId: string) => `/tasks?project=${projectId}`;

/** A project's settings page (its workflow). */
export const projectSettingsPath = (projectId: string) => `/projects/${projectId}/settings`;
