// .npz archives: zip members NAME.npy read with CRC checks, written STORED.
#include "runtime/core/Npy.h"
#include "runtime/core/Zip.h"

#include <set>

namespace tcc {

Result<NamedArrays> loadNpz(const std::string &path) {
  TCC_ASSIGN_OR_RETURN(ZipReader zip, ZipReader::open(path));
  NamedArrays out;
  std::set<std::string> seen;
  for (const ZipEntry &e : zip.entries()) {
    std::string what = "'" + path + "' member '" + e.name + "'";
    const std::string suffix = ".npy";
    if (e.name.size() <= suffix.size() ||
        e.name.compare(e.name.size() - suffix.size(), suffix.size(), suffix))
      return Status::error(ErrorCode::IoError, what + ": not an .npy member");
    std::string name = e.name.substr(0, e.name.size() - suffix.size());
    if (!seen.insert(name).second)
      return Status::error(ErrorCode::IoError, what + ": duplicate member");
    TCC_ASSIGN_OR_RETURN(auto src, zip.openEntry(e));
    TCC_ASSIGN_OR_RETURN(Array a, readNpy(*src, what));
    if (src->crc() != e.crc)
      return Status::error(ErrorCode::IoError,
                           what + ": CRC-32 mismatch (corrupt data)");
    out.emplace_back(std::move(name), std::move(a));
  }
  return out;
}

Status saveNpz(const std::string &path, const NamedArrays &arrays) {
  std::set<std::string> seen;
  struct Member {
    std::string header;
    Array data;
  };
  std::vector<Member> members;
  for (const auto &[name, array] : arrays) {
    if (name.empty() || !seen.insert(name).second)
      return Status::error(ErrorCode::InvalidArgument,
                           "'" + path + "': empty or duplicate array name '" +
                               name + "'");
    if (array.isNull())
      return Status::error(ErrorCode::InvalidArgument,
                           "'" + path + "': array '" + name + "' is null");
    bool fortran = !array.isContiguous() && array.isFortranContiguous();
    TCC_ASSIGN_OR_RETURN(Array data,
                         fortran ? Result<Array>(array) : array.contiguous());
    auto header = npyHeader(data, fortran);
    if (!header.ok())
      return Status::error(header.status().code(),
                           "'" + path + "' array '" + name +
                               "': " + header.status().message());
    members.push_back({std::move(*header), std::move(data)});
  }
  return writeFileAtomically(path, [&](std::FILE *f) {
    ZipWriter zip(f, path);
    for (size_t i = 0; i < members.size(); ++i) {
      const Member &m = members[i];
      TCC_RETURN_IF_ERROR(zip.addStored(arrays[i].first + ".npy",
                                        {{m.header.data(), m.header.size()},
                                         {m.data.data(), m.data.nbytes()}}));
    }
    return zip.finish();
  });
}

} // namespace tcc
