/** An element id for an item named by any text (a path, `table.column`): characters an id cannot hold written as `_hex`. */
export const domIdOf = (prefix: string, id: string): string => `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, (char) => `_${char.charCodeAt(0).toString(16)}`)}`;
