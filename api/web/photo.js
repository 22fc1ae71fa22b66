// A phone's photo made smaller before it is sent. A phone's camera makes JPEGs of 12 MP
// and more, several MB each, and the table's connection is often a phone's: such a photo
// takes seconds to send where a 2048 px one takes a fraction of that. The server decodes every photo
// down to about 1000 px on its long side anyway (vision/photo.py), so a photo of
// LONG_SIDE px reads as the original does (README.md, "The table-side web page", has the
// measurement); it is also larger than the generator's training photos, so the corrected
// photos a table exports for fine-tuning keep their detail.

export const LONG_SIDE = 2048;
const QUALITY = 0.9;

// The photo to send for `file`: a JPEG of LONG_SIDE px on its long side, turned upright
// as its EXIF orientation says, where the browser can decode `file` and that is smaller;
// otherwise `file` itself (a photo small already, or one the browser cannot decode, such
// as HEIC in most browsers: the server reads those).
export async function photoForUpload(file) {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    try {
      await image.decode();
    } catch {
      return file;
    }
    // An <img> is drawn the way up its EXIF tag says (CSS image-orientation: from-image,
    // every browser's default since 2020), and naturalWidth/Height are that way up too.
    const scale = LONG_SIDE / Math.max(image.naturalWidth, image.naturalHeight);
    if (!(scale < 1)) return file;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(image.naturalWidth * scale);
    canvas.height = Math.round(image.naturalHeight * scale);
    const context = canvas.getContext("2d");
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = "high";
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", QUALITY));
    if (!blob || blob.size >= file.size) return file;
    return new File([blob], jpegName(file.name), { type: "image/jpeg" });
  } catch {
    return file; // out of memory for a huge photo, say: the original still serves
  } finally {
    URL.revokeObjectURL(url);
  }
}

function jpegName(name) {
  const stem = (name || "photo").replace(/\.[^./]*$/, "");
  return `${stem}.jpg`;
}

// What a failed upload says to the player: a sentence they can act on, in place of the
// server's own words, and whether another photo is the way on (`choose`) or the same one
// sent again (`retry`: the connection or the server, not the file, was at fault).
// `status` and `body` are the server's answer (status 0: no answer at all).
const FORMATS = "Choose a JPEG, PNG, WebP or HEIC photo.";

export function uploadFailure(status, body, file) {
  const reason = body?.reason;
  const detail = typeof body?.detail === "string" ? body.detail : "";
  if (file && file.size === 0) return { message: "That file is empty. Choose a photo of the cards.", choose: true };
  if (status === 0) {
    return { message: "The photo could not be sent: no connection. Try again when the phone is back online.", retry: true, choose: true };
  }
  if (reason === "not_an_image" && /empty/.test(detail)) {
    return { message: "That file is empty. Choose a photo of the cards.", choose: true };
  }
  if (reason === "not_an_image") return { message: `That file is not a photo. ${FORMATS}`, choose: true };
  if (reason === "unsupported") return { message: `That kind of image cannot be read here. ${FORMATS}`, choose: true };
  if (reason === "truncated") {
    return { message: "That photo is damaged or was only partly saved. Take it again or choose another.", choose: true };
  }
  if (reason === "too_large" || status === 413) {
    // Every 413 of the server carries its limit as a number (a proxy's may not).
    const limit = body?.limit_bytes;
    const mb = Number.isInteger(limit) && limit > 0 ? ` (limit ${megabytes(limit)} MB)` : "";
    return { message: `That photo is too large${mb}. Choose a smaller one.`, choose: true };
  }
  if (reason === "too_many_pixels") {
    return { message: "That photo has too many pixels to read. Choose a smaller one.", choose: true };
  }
  if (status === 503) {
    return { message: "The server cannot look at photos just now. Try again in a moment, or count the cards by hand.", retry: true, choose: true };
  }
  if (status >= 500) return { message: "Something went wrong reading the photo. Try again, or choose another.", retry: true, choose: true };
  // Anything else (a 409 from a change on another phone, say) is the server's sentence.
  const words = detail ? `${detail[0].toUpperCase()}${detail.slice(1)}${/[.!?]$/.test(detail) ? "" : "."}` : "";
  return { message: words || `The photo could not be used (the server answered ${status}).`, retry: true, choose: true };
}

function megabytes(bytes) {
  const mb = bytes / 1_000_000;
  return mb >= 10 ? String(Math.round(mb)) : String(Math.round(mb * 10) / 10);
}
