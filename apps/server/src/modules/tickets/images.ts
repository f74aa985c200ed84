import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { TICKET_IMAGE_MAX_BYTES, TICKET_IMAGE_TYPES } from '@skyway/shared/tickets';
import { AppError } from '../../http/errors.ts';

type ImageType = (typeof TICKET_IMAGE_TYPES)[number];

export interface CleanImage {
  mime: ImageType;
  data: Buffer;
}

/** Past this many pixels an image is refused before it is decoded (a small file can unpack huge). */
const MAX_PIXELS = 40_000_000;

const isImageType = (mime: string): mime is ImageType =>
  (TICKET_IMAGE_TYPES as readonly string[]).includes(mime);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decoded(upload: string): Buffer {
  // A data URL's prefix is the browser's habit; its declared type is ignored like a file's name.
  const text = upload.replace(/^data:[^,]*,/, '');
  if (!BASE64.test(text)) throw new AppError(400, 'ticket_image_type');
  return Buffer.from(text, 'base64');
}

/**
 * An uploaded image made safe to keep and to hand out: its type read from its bytes (the name and
 * the declared type are never trusted), then decoded and encoded again in that type. What comes out
 * holds the pixels alone: no EXIF (a phone's GPS position), no comment, nothing appended after the
 * image's end (a polyglot's HTML or script). Its orientation is applied to the pixels before the
 * metadata that carried it is dropped.
 */
export async function cleanImage(upload: string): Promise<CleanImage> {
  const bytes = decoded(upload);
  if (bytes.length > TICKET_IMAGE_MAX_BYTES) throw new AppError(400, 'ticket_image_too_large');
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !isImageType(detected.mime)) throw new AppError(400, 'ticket_image_type');
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate();
    const encoded =
      detected.mime === 'image/png'
        ? image.png()
        : detected.mime === 'image/jpeg'
          ? image.jpeg({ quality: 85 })
          : image.webp({ quality: 85 });
    return { mime: detected.mime, data: await encoded.toBuffer() };
  } catch {
    // Bytes that begin like an image but do not decode as one (truncated, corrupt, too many pixels).
    throw new AppError(400, 'ticket_image_type');
  }
}

/** Each upload cleaned; the first refusal refuses them all. */
export const cleanImages = (uploads: readonly string[]): Promise<CleanImage[]> =>
  Promise.all(uploads.map(cleanImage));
