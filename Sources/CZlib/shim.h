#ifndef SWIPEDICT_CZLIB_SHIM_H
#define SWIPEDICT_CZLIB_SHIM_H
// zlib, for reading gzip-compressed word lists (the AOSP lists ship as .combined.gz).
// Only Sources/SwipeDictFiles/Gzip.swift imports this module.
#include <zlib.h>
#endif
