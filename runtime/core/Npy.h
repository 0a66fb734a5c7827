// .npy and .npz files: numpy's array formats, read and written without numpy.
#ifndef TCC_RUNTIME_CORE_NPY_H
#define TCC_RUNTIME_CORE_NPY_H

#include "runtime/core/Array.h"
#include "runtime/core/FileIo.h"
#include "runtime/core/Status.h"

#include <string>
#include <utility>
#include <vector>

namespace tcc {

/// Named arrays in a stable order (the members of an .npz archive).
using NamedArrays = std::vector<std::pair<std::string, Array>>;

/// Loads a .npy file: format 1.0, 2.0 or 3.0, little-endian, dtypes b1 f2 f4
/// f8 i4 i8, C or Fortran order (Fortran gives Fortran strides). Every
/// malformed file gives an IoError/Unsupported naming the file and the
/// problem; the file size is checked before any allocation.
Result<Array> loadNpy(const std::string &path);
/// Saves `array` as .npy (format 1.0, or 2.0 for a huge header). A Fortran-
/// but not C-contiguous array is written in Fortran order without a copy.
/// bf16 is Unsupported. Written atomically (temporary file, then rename).
Status saveNpy(const std::string &path, const Array &array);

/// Loads every NAME.npy member of an .npz archive (STORED, or DEFLATED as
/// np.savez_compressed writes when built with zlib), in archive order,
/// checking each member's CRC-32.
Result<NamedArrays> loadNpz(const std::string &path);
/// Saves arrays as an uncompressed .npz (one STORED NAME.npy member each, as
/// np.savez writes). Names must be unique and non-empty. Atomic.
Status saveNpz(const std::string &path, const NamedArrays &arrays);

/// Building block: reads one .npy image from `src`, which must hold exactly
/// the header and the data. `what` names the source in error messages.
Result<Array> readNpy(ByteSource &src, const std::string &what);
/// Building block: the .npy preamble and header (padded to 64 bytes) for an
/// array laid out in C order, or Fortran order when `fortranOrder`.
Result<std::string> npyHeader(const Array &array, bool fortranOrder);

} // namespace tcc

#endif // TCC_RUNTIME_CORE_NPY_H
