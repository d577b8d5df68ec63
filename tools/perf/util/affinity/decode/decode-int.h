/* SPDX-License-Identifier: GPL-2.0 */
/* Internal interfaces between the parts of the sample decoder. */
#ifndef __PERF_AFFINITY_DECODE_INT_H
#define __PERF_AFFINITY_DECODE_INT_H

#include <stdbool.h>
#include <linux/types.h>
#include "../../insn-access.h"
#include "key.h"
#include "tls-reg.h"

struct addr_location;
struct dso;
struct evsel;
struct fa_access;
struct fa_code;
struct fa_decoder;
struct perf_sample;
struct map;
struct regs_dump;

/*
 * An instruction before the sampled one in its basic block, that accesses
 * memory at an address the sampled registers still give
 */
struct fa_block_insn {
	s32			 back;		/* its distance to the sampled IP, < 0: a turn before, after it */
	bool			 adjacent;	/* the instruction right before */
	struct insn_access_insn	 insn;
};

/* Whether the access's base register holds an address relative to the thread pointer */
enum fa_tp_state {
	FA_TP_UNKNOWN,		/* not looked up yet */
	FA_TP_NONE,
	FA_TP_FOUND,		/* as fa_insn::tp says */
};

/* A sampled instruction, decoded once (code-cache.c), with its block (decode-sw.c) */
struct fa_insn {
	struct fa_dso_key	 key;
	bool			 readable;
	bool			 changed;	/* not the binary recorded */
	bool			 walked;	/* @block is known */
	u8			 walk_stop;	/* enum fa_walk_stop */
	u8			 nr_block;
	u8			 block_lost;	/* accesses whose registers changed since */
	u8			 tp_state;	/* enum fa_tp_state */
	struct fa_tls_reg	 tp;		/* of the access's base register */
	struct insn_access_insn	 insn;
	struct fa_block_insn	*block;		/* nearest first */
};

void fa_code__sweep(struct fa_code *fn, const char *arch, bool is64);
int fa_code__back_edge(const struct fa_code *fn, u32 head);
int fa_code__walk(const struct fa_code *fn, u32 off, const char *arch, bool is64,
		  struct fa_block_insn *found, u8 *nr, u8 *lost);
int fa_decoder__cache_init(struct fa_decoder *dec);
void fa_decoder__cache_exit(struct fa_decoder *dec);
bool fa_decoder__is64(struct fa_decoder *dec, struct dso *dso);
struct fa_insn *fa_decoder__insn_entry(struct fa_decoder *dec, struct map *map, u64 ip);
const struct insn_access_insn *fa_decoder__insn(struct fa_decoder *dec,
						struct addr_location *al, u64 ip);
int fa_decoder__sw(struct fa_decoder *dec, struct perf_sample *sample,
		   struct addr_location *al, struct fa_access *acc);
int fa_code__watch(const struct fa_code *fn, u32 off, u64 ip, const char *arch, bool is64,
		   struct regs_dump *regs, u64 bp_addr, u64 bp_len, struct fa_access *acc,
		   int *drop);
int fa_decoder__watch(struct fa_decoder *dec, struct evsel *evsel, struct perf_sample *sample,
		      struct addr_location *al, struct fa_access *acc);
bool fa_insn__waits(const struct insn_access_insn *insn, const char *arch);
int fa_access__from_insn(const struct insn_access_insn *insn, u64 ip, struct regs_dump *regs,
			 u16 flags, const struct fa_access *tmpl, struct fa_access *acc);
int fa_place__one(u64 time, u64 seed, struct fa_access *acc, int n);
int fa_place__later(const struct fa_code *fn, u32 off, const struct fa_insn *fi, u64 ip,
		    const char *arch, bool is64, struct regs_dump *regs, u64 time, u64 seed,
		    struct fa_access *acc);
#ifdef HAVE_LIBTRACEEVENT
int fa_decoder__tp(struct fa_decoder *dec, struct evsel *evsel,
		   struct perf_sample *sample, struct fa_access *acc);
#else
#include <linux/compiler.h>
#include "decode.h"

/* Without libtraceevent the fields of a tracepoint sample can't be read. */
static inline int fa_decoder__tp(struct fa_decoder *dec, struct evsel *evsel __maybe_unused,
				 struct perf_sample *sample __maybe_unused,
				 struct fa_access *acc __maybe_unused)
{
	fa_decoder__drop(dec, FA_DROP_TP_FORMAT);
	return 0;
}
#endif

#endif /* __PERF_AFFINITY_DECODE_INT_H */
