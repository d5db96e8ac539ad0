// Hands a file the page holds (a CSV it wrote, a download it fetched with the session's token) to
// the browser to save: a plain link could not carry the bearer token.
export function saveFile(fileName: string, file: Blob): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
