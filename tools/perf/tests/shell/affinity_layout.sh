#!/bin/bash
# perf affinity layout prints types as pahole does
# SPDX-License-Identifier: GPL-2.0
#
# Structs of the shapes kernel structs have (anonymous unions of anonymous
# structs, bitfields over several storage units, members and structs
# aligned by attribute, holes, a typedef of an anonymous struct, an
# embedded struct, a flexible array member, pointers to const, members of
# struct types with tail padding, a bitfield forced to a new storage unit, a
# struct group, a packed struct): perf affinity layout prints them byte for
# byte as pahole -C does; C11 atomics, which pahole 1.24 cannot read, as
# pahole 1.25 does.  Bad input is one line and an error.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"

command -v cc > /dev/null || affinity__skip "no C compiler"
command -v pahole > /dev/null || affinity__skip "no pahole (dwarves)"

cat > "${tmpdir}/types.c" <<'PROG'
struct list { struct list *next, *prev; };

struct skb {
	union {
		struct {
			struct skb *next;
			struct skb *prev;
			union {
				void *dev;
				unsigned long dev_scratch;
			};
		};
		struct list list;
	};
	void *sk;
	unsigned char pkt_type:3, ignore_df:1, ip_summed:2;
	unsigned short tc_index;
	unsigned int len, data_len:20, mac_len:12;
	char cb[48] __attribute__((aligned(8)));
	unsigned long refdst;
};

struct runq {
	int lock;
	unsigned int nr_running;
	char pad;
	unsigned long clock __attribute__((aligned(64)));
	struct list leaf;
	short tail;
} __attribute__((aligned(16)));

typedef struct {
	long a;
	char b;
	int c[3];
	void (*fn)(int);
} anon_t;

struct hdr {
	unsigned short len;
	unsigned char flags;
	char data[];
};

struct tail { long a; char b; };

struct notes {
	const char *name;
	const struct list *lp;
	char **argv;
	char * const cp;
	struct tail t;
	unsigned int a:1, :0, b:3;
	union {
		struct { int x, y; };
		struct { int x, y; } grp;
	};
	struct {
		char c;
		long l;
		unsigned char f:2;
	} __attribute__((aligned(64))) aligned_anon;
	int zero[0];
	int last;
};

struct __attribute__((packed)) wire {
	unsigned short id;
	unsigned int len;
	unsigned char flags;
};

struct skb s0;
struct runq r0;
struct notes n0;
struct wire w0;
anon_t a0;
struct hdr *h0;

int main(void)
{
	return 0;
}
PROG
cc -g -O0 -o "${tmpdir}/types" "${tmpdir}/types.c" || affinity__skip "cc failed"

for type in skb runq anon_t hdr notes wire; do
	pahole -C "${type}" "${tmpdir}/types" > "${tmpdir}/pahole" 2> /dev/null
	if [ ! -s "${tmpdir}/pahole" ]; then
		fail "pahole -C ${type} printed nothing"
		continue
	fi
	affinity__same_as_pahole "${tmpdir}/types" "${type}" "${type}"
done

# pahole 1.24 cannot read C11 atomics (DW_TAG_atomic_type): they print as
# const members do, as pahole 1.25 prints them, not as '?'
echo "_Atomic members"
cat > "${tmpdir}/atomic.c" <<'PROG'
struct page_atomic { _Atomic long free; const int c; _Atomic(unsigned long) *p; };
struct page_atomic pa;
int main(void) { return 0; }
PROG
if ! cc -g -O0 -o "${tmpdir}/atomic" "${tmpdir}/atomic.c"; then
	fail "cc atomic.c"
elif ! perf affinity layout "${tmpdir}/atomic" page_atomic > "${tmpdir}/ours" 2>&1; then
	fail "perf affinity layout page_atomic"
else
	printf '\t%s\n' "_Atomic long int           free;                 /*     0     8 */" \
		"const int                  c;                    /*     8     4 */" \
		"_Atomic long unsigned int  * p;                  /*    16     8 */" > "${tmpdir}/want"
	grep -F -f "${tmpdir}/want" "${tmpdir}/ours" | cmp -s - "${tmpdir}/want" ||
		fail "_Atomic members: $(grep -E 'free|p;' "${tmpdir}/ours")"
fi

echo "128 byte cache lines: struct skb in one line"
perf affinity layout --cacheline-size 128 "${tmpdir}/types" skb > "${tmpdir}/ours" 2>&1
grep -q "cachelines: 1," "${tmpdir}/ours" || fail "--cacheline-size 128"

echo "bad input: one line, an error"
check_error() {
	local what=$1 want=$2

	shift 2
	if perf affinity layout "$@" > "${tmpdir}/out" 2>&1; then
		fail "${what}: exit 0"
	elif ! grep -q "${want}" "${tmpdir}/out"; then
		fail "${what}: $(head -1 "${tmpdir}/out")"
	fi
}
check_error "no such file" "No such file" "${tmpdir}/nonexistent" skb
check_error "no such type" "no struct, union or typedef nosuch" "${tmpdir}/types" nosuch
check_error "no debug info" "no DWARF debug info" "${tmpdir}/types.c" skb
check_error "bad line size" "power of two" --cacheline-size 48 "${tmpdir}/types" skb
check_error "no type" "no type given" "${tmpdir}/types"

cleanup
exit $err
