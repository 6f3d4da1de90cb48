#ifndef SWIPEDICT_CZSTD_SHIM_H
#define SWIPEDICT_CZSTD_SHIM_H
// libzstd, imported for SwipeDictCompiler's streaming reader and the pack/install commands.
// Only Sources/SwipeDictCompiler/Ingest/Zstd.swift imports this module.
#include <zstd.h>
#endif
