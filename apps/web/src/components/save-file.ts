// Hands a file the page holds (a CSV it wrote, a download it fetched with the session's token) to
// the browser to save: a plain link could not carry the bearer token.
import { UTF8_BOM } from '@stockwise/contract';

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

/**
 * Hands a CSV text to the browser as a download. The byte order mark makes Excel read it as UTF-8
 * (without it Excel on Windows shows "GrÃ¶ÃŸe" for "Größe"); LibreOffice and Google Sheets skip it.
 */
export function downloadCsv(fileName: string, text: string): void {
  saveFile(fileName, new Blob([UTF8_BOM, text], { type: 'text/csv;charset=utf-8' }));
}
