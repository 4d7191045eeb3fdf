// Uploaded avatars and organization icons: decoded and cut to squares with sharp (libvips).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type sharpTypes from 'sharp';
import { lazy } from '../lazy.ts';
import { badRequest } from './errors.ts';
import { imageExtension, writeDurably } from './uploads.ts';

// Loaded by the first upload (libvips is about 20 MB a server need not carry until then).
const loadSharp = lazy<typeof sharpTypes>('sharp');
let configured = false;
function sharp(...args: Parameters<typeof sharpTypes>): sharpTypes.Sharp {
  const lib = loadSharp();
  if (!configured) {
    // Decoded images are not kept between requests; an upload is a one-off.
    lib.cache(false);
    configured = true;
  }
  return lib(...args);
}

/** Larger images (in pixels, before resizing) are refused rather than decoded. */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * The image as PNG squares of the given sizes, cropped to the centre, turned upright by its
 * EXIF orientation (an animated image keeps its first frame). Refuses what is not a PNG, GIF,
 * JPEG or WebP image, or does not decode.
 */
export async function squarePngs(data: Buffer, sizes: number[]): Promise<Buffer[]> {
  imageExtension(data);
  // The header's size, read without decoding the pixels.
  const meta = await sharp(data).metadata().catch(() => null);
  if (!meta?.width || !meta.height) throw badRequest('Could not decode image; did you upload an image file?');
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw badRequest(`Image is too large: at most ${MAX_INPUT_PIXELS / 1_000_000} million pixels, this one has ${meta.width}x${meta.height}.`);
  }
  try {
    const image = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
    return await Promise.all(sizes.map((size) => image.clone().resize(size, size, { fit: 'cover' }).png().toBuffer()));
  } catch {
    throw badRequest('Could not decode image; did you upload an image file?');
  }
}

/** Replaces the file at `file` with `data` in one step, so a reader sees the old or the new one. */
export async function replaceFile(file: string, data: Buffer): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}`);
  await writeDurably(temp, data);
  try {
    await fs.promises.rename(temp, file);
  } catch (err) {
    await fs.promises.rm(temp, { force: true });
    throw err;
  }
}
