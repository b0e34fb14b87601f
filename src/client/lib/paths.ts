/** The tasks page filtered to one project (its `project` URL filter). */
export const projectTasksPath = (projectId: string) => `/tasks?project=${projectId}`;
