// SPDX-License-Identifier: GPL-2.0
/*
 * A C++ service class: a std::atomic<int> counter one thread increments
 * beside read-mostly policy members another thread reads, one instance
 * from new.  layout_apply.py puts the members perf affinity's --emit-c
 * prints in place of those between '// members' and '// end of members';
 * -DHAND_FIX is the fix by hand.  Prints the seconds the counter's thread
 * took for N admissions.
 */
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace svc {
class Admission {
public:
	explicit Admission(const std::string &n) : name_(n) {}
	void admit() { admitted_.fetch_add(1, std::memory_order_relaxed); }
	bool allowed(int x) const { return x < limit_ && x * ratio_ < burst_ && x != floor_; }
	int count() const { return admitted_.load(std::memory_order_relaxed); }
private:
#ifdef HAND_FIX
	std::string name_;
	alignas(64) std::atomic<int> admitted_{0};
	alignas(64) int limit_ = 1000;
	int floor_ = 3;
	double ratio_ = 1.5;
	double burst_ = 1e9;
#else
	// members
	std::string name_;
	std::atomic<int> admitted_{0};
	int limit_ = 1000;
	int floor_ = 3;
	double ratio_ = 1.5;
	double burst_ = 1e9;
	// end of members
#endif
};
}

static std::atomic<bool> stop;

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	svc::Admission *a = new svc::Admission("front");
	std::chrono::duration<double> took{};
	long evaluated = 0;

	std::thread reader([a, &evaluated] {
		long k = 0;

		while (!stop.load(std::memory_order_relaxed))
			for (int i = 0; i < 100; i++)
				k += a->allowed(i);
		evaluated = k;
	});
	std::thread writer([a, n, &took] {
		auto start = std::chrono::steady_clock::now();

		for (long i = 0; i < n; i++)
			a->admit();
		took = std::chrono::steady_clock::now() - start;
	});
	writer.join();
	stop = true;
	reader.join();
	printf("%d admissions, %ld evaluations; seconds: %.4f\n", a->count(), evaluated,
	       took.count());
	delete a;
	return 0;
}
