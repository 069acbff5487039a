// pugixml's layout: tabs throughout, constructors whose body is empty or
// holds only code under an #ifdef this configuration skips.
#include <cstddef>

namespace pool
{
	struct page
	{
		page(std::size_t size_): size(size_), busy(0)
		{
		#ifdef POOL_COMPACT
			busy = size;
		#endif
		}

		page(): size(0), busy(0)
		{
		}

		std::size_t size;
		std::size_t busy;
	};

	struct writer
	{
		virtual ~writer()
		{
		}
	};
}
